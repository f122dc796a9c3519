import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * A fresh working folder beside the tus folder (the same disk, so files move into local storage
 * by renaming), never inside it; the caller removes it with removeWorkDir.
 *
 * Made and removed through libuv's thread pool, not on the calling thread: while part workers
 * write to the same disk, making or removing a folder can wait a millisecond for the disk's journal.
 */
export async function makeWorkDir(tusDir: string, prefix: string): Promise<string> {
  const unpacked = unpackedDirOf(tusDir);
  try {
    return await fs.mkdtemp(path.join(unpacked, prefix));
  } catch (err) {
    // The first time only (or after someone removed it): the folder of working folders.
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw err;
    }
    await fs.mkdir(unpacked, { recursive: true });
    return fs.mkdtemp(path.join(unpacked, prefix));
  }
}

/** The working folder named `name` beside the tus folder, not made yet. */
export function workDirNamed(tusDir: string, name: string): string {
  return path.join(unpackedDirOf(tusDir), name);
}

/** Removes a working folder: at once when it is empty (its files moved into storage), else with what it holds. */
export async function removeWorkDir(dir: string): Promise<void> {
  try {
    await fs.rmdir(dir);
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
    // A folder its filing removes meanwhile is simply gone.
    const stat = await fs.stat(dir).catch(() => undefined);
    if (stat && Date.now() - stat.mtimeMs > olderThanMs) {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}
