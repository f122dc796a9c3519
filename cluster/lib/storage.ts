import fs from 'node:fs';
import path from 'node:path';
import { startTestS3 } from '../../server/test/s3-server.js';

/** The storage the instances share, and how to stop it. */
export interface ClusterStorage {
  /** The settings of the instance numbered `index`. */
  envOf: (index: number) => Record<string, string>;
  description: string;
  stop(): Promise<void>;
}

/**
 * `s3` (default): a bucket on an S3-protocol server (s3rver) started here, its files kept in
 * `<dataDir>/s3`, the instances in STORAGE=s3 mode as on several machines. `local`: one folder,
 * `<dataDir>/files`, that every instance of this machine writes to.
 */
export async function clusterStorage(
  dataDir: string,
  kind = process.env.CLUSTER_STORAGE ?? 's3',
): Promise<ClusterStorage> {
  if (kind === 'local') {
    const dir = path.join(dataDir, 'files');
    fs.mkdirSync(dir, { recursive: true });
    return {
      envOf: () => ({ STORAGE_DIR: dir }),
      description: `local folder ${dir}`,
      stop: () => Promise.resolve(),
    };
  }
  if (kind !== 's3') {
    throw new Error(`CLUSTER_STORAGE must be s3 or local, not ${kind}`);
  }
  const s3 = await startTestS3('radiology-cluster', { directory: path.join(dataDir, 's3') });
  return {
    // Each instance's scratch space (work folders, copies of uploads) is its own, as on machines apart.
    envOf: (index) => ({ ...s3.env, STORAGE_DIR: path.join(dataDir, `scratch-${index + 1}`) }),
    description: `bucket ${s3.settings.bucket} at ${s3.settings.endpoint} (s3rver, files in ${s3.directory})`,
    stop: () => s3.close(),
  };
}
