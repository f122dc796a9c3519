import fs from 'node:fs/promises';
import fsSync from 'node:fs';
import path from 'node:path';

/**
 * A fresh working folder beside the tus folder (the same disk, so files move into local storage
 * by renaming), never inside it; the caller removes it with removeWorkDir.
 *
 * Made and removed on the calling thread: each costs microseconds, while a call through libuv's
 * thread pool waits behind the file writes under way (10 ms and more per STOW-RS request).
 */
export function makeWorkDir(tusDir: string, prefix: string): string {
  const unpacked = unpackedDirOf(tusDir);
  fsSync.mkdirSync(unpacked, { recursive: true });
  return fsSync.mkdtempSync(path.join(unpacked, prefix));
}

/** Removes a working folder: at once when it is empty (its files moved into storage), else with what it holds. */
export async function removeWorkDir(dir: string): Promise<void> {
  try {
    fsSync.rmdirSync(dir);
  } catch {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function unpackedDirOf(tusDir: string): string {
  return path.join(path.dirname(tusDir), 'unpacked');
}

/**
 * Removes working folders a crash left behind: a filing lasts minutes at most, so a folder older
 * than `olderThanMs` belongs to no running request.
 */
export async function removeStaleWorkDirs(tusDir: string, olderThanMs: number): Promise<void> {
  const unpacked = unpackedDirOf(tusDir);
  const names = await fs.readdir(unpacked).catch(() => [] as string[]);
  for (const name of names) {
    const dir = path.join(unpacked, name);
    const { mtimeMs } = await fs.stat(dir);
    if (Date.now() - mtimeMs > olderThanMs) {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}
