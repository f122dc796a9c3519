import fs from 'node:fs';
import path from 'node:path';

/** The storage the instances share, and how to stop it. */
export interface ClusterStorage {
  env: Record<string, string>;
  description: string;
  stop(): Promise<void>;
}

/** A folder every instance of this machine writes to (the S3 driver replaces it across machines). */
export function clusterStorage(dataDir: string): Promise<ClusterStorage> {
  const dir = path.join(dataDir, 'files');
  fs.mkdirSync(dir, { recursive: true });
  return Promise.resolve({
    env: { STORAGE_DIR: dir },
    description: `local folder ${dir}`,
    stop: () => Promise.resolve(),
  });
}
