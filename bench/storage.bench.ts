/**
 * The storage drivers side by side (docs/operations.md §4a): the production server on a fresh
 * embedded database with its files on the local disk, then in an S3 bucket (s3rver on loopback,
 * the S3 protocol's HTTP round trips included); STOW-RS of a SLICES-slice CT in batches, then its
 * frames read back. A warm-up study is stored first on each, untimed.
 */
import path from 'node:path';
import { startTestS3 } from '../server/test/s3-server.js';
import { Api } from './lib/api.js';
import { startAppServer, stopServer } from './lib/servers.js';
import { SLICES, stowAndFrameRates } from './dicom.bench.js';

export interface StorageFigures {
  local: { stowPerSecond: number; framesPerSecond: number };
  s3: { stowPerSecond: number; framesPerSecond: number };
}

async function ratesOn(dataDir: string, workDir: string, env: Record<string, string>) {
  const base = await startAppServer(dataDir, env);
  try {
    const physician = new Api(base);
    await physician.signIn('physician@example.com', 'demo-password');
    const patient = new Api(base);
    await patient.signIn('patient@example.com', 'demo-password');
    const patientUid = (await patient.json<{ uid: string }>('GET', '/api/user/me')).uid;
    await stowAndFrameRates(physician, patientUid, path.join(workDir, 'warm-up'));
    return await stowAndFrameRates(physician, patientUid, path.join(workDir, 'timed'));
  } finally {
    await stopServer(base);
  }
}

export async function storageFigures(dataDir: string, workDir: string): Promise<StorageFigures> {
  const local = await ratesOn(path.join(dataDir, 'storage-local'), path.join(workDir, 'storage-local'), {});
  const s3 = await startTestS3('radiology-bench');
  try {
    return {
      local,
      s3: await ratesOn(path.join(dataDir, 'storage-s3'), path.join(workDir, 'storage-s3'), s3.env),
    };
  } finally {
    await s3.close();
  }
}

export function printStorageTable({ local, s3 }: StorageFigures): void {
  console.log(`\nStorage drivers: a ${SLICES}-slice 512×512 CT, embedded database\n`);
  console.log('| figure | local disk | S3 (s3rver on loopback) | S3 / local |');
  console.log('|---|---:|---:|---:|');
  console.log(
    `| STOW-RS, batches of 10, 2 at a time | ${local.stowPerSecond.toFixed(0)} instances/s | ${s3.stowPerSecond.toFixed(0)} instances/s | ${(s3.stowPerSecond / local.stowPerSecond).toFixed(2)} |`,
  );
  console.log(
    `| WADO-RS first frame of every instance, 6 at a time | ${local.framesPerSecond.toFixed(0)} frames/s | ${s3.framesPerSecond.toFixed(0)} frames/s | ${(s3.framesPerSecond / local.framesPerSecond).toFixed(2)} |`,
  );
}
