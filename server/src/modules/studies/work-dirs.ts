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

/** This process's shared working folder, by tus folder: made once, never removed while it runs. */
const sharedDirs = new Map<string, Promise<string>>();
/** Requests that made working files in this process: each request's prefix. */
let workFileRequests = 0;

/**
 * Files of their own for a request that writes a few (a STOW-RS request): named by a prefix of
 * their own (a count of this process's requests) in this process's shared working folder, so that
 * no folder is made and removed per request (on this machine's disk each costs a millisecond or
 * more, a tenth of a one-instance STOW-RS).
 * `remove` deletes those still there once the request is done; a crash leaves them in a folder of
 * a process that is gone, which the clean-up removes a day later (removeStaleWorkDirs).
 */
export async function makeWorkFiles(tusDir: string): Promise<{
  pathOf: (name: string) => string;
  remove: (moved?: ReadonlySet<string>) => Promise<void>;
}> {
  let shared = sharedDirs.get(tusDir);
  if (!shared) {
    shared = makeWorkDir(tusDir, `shared-${process.pid}-`);
    sharedDirs.set(tusDir, shared);
    // A failure is the caller's to report; the next request tries again.
    shared.catch(() => sharedDirs.delete(tusDir));
  }
  const dir = await shared;
  const prefix = (workFileRequests += 1).toString(36);
  const made = new Set<string>();
  return {
    pathOf: (name) => {
      const file = path.join(dir, `${prefix}-${name}`);
      made.add(file);
      return file;
    },
    remove: async (moved) => {
      // Files moved into storage are gone already: those the caller names are not looked for, and
      // any other that went costs one failed call (fs.rm would look each up first).
      await Promise.all(
        [...made]
          .filter((file) => !moved?.has(file))
          .map((file) =>
            fs.unlink(file).catch((err: NodeJS.ErrnoException) => {
              if (err.code !== 'ENOENT') {
                throw err;
              }
            }),
          ),
      );
    },
  };
}

/** Whether a working folder is one this process still uses (the clean-up leaves it alone). */
async function isInUse(dir: string): Promise<boolean> {
  for (const shared of sharedDirs.values()) {
    if ((await shared.catch(() => undefined)) === dir) {
      return true;
    }
  }
  return false;
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
    if (await isInUse(dir)) {
      continue;
    }
    // A folder its filing removes meanwhile is simply gone.
    const stat = await fs.stat(dir).catch(() => undefined);
    if (stat && Date.now() - stat.mtimeMs > olderThanMs) {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
}
