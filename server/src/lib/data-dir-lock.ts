import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded database may be opened by one process only. The server records its pid in
 * DATA_DIR/server.pid; another process (a second server, the admin CLI) sees it and stops with
 * a clear message instead of corrupting the database.
 */
export function lockFile(dataDir: string): string {
  return path.join(dataDir, 'server.pid');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The pid of a live process holding the data directory, if any. */
export function findLockHolder(dataDir: string): number | undefined {
  try {
    const pid = Number(fs.readFileSync(lockFile(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function acquireDataDirLock(dataDir: string): () => void {
  const holder = findLockHolder(dataDir);
  if (holder) {
    throw new Error(
      `The embedded database in ${dataDir} is in use by process ${holder}. Stop that server first, ` +
        'or point DATABASE_URL at a PostgreSQL server to run several processes.',
    );
  }
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(lockFile(dataDir), String(process.pid), { mode: 0o600 });
  return () => {
    fs.rmSync(lockFile(dataDir), { force: true });
  };
}
