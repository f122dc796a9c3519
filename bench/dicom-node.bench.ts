/**
 * C-STORE ingest (docs/api.md §12.6) beside Orthanc: dcmtk's dcmsend sends a SLICES-slice
 * 512×512 16-bit CT phantom over one association, once into our DICOM node and once into
 * Orthanc's, in the same run, alternating, each time a series with new UIDs, after an untimed
 * 20-slice series into each. The time is dcmsend's
 * from start to exit: our node answers the release once the study is filed into the Incoming list,
 * so the figure is "sent and filed".
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { incomingListSchema } from '@ra/shared';
import { freePort } from '../server/test/free-port.js';
import { ctPhantom, writeCtPhantom } from '../server/test/ct-phantom.js';
import { startOrthanc } from '../server/test/orthanc.js';
import { Api } from './lib/api.js';
import { startAppServer, stopServer } from './lib/servers.js';
import { SLICES } from './dicom.bench.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
/** Sends into each archive, alternating; every run is shown. */
const RUNS = 2;
const CALLING_AE = 'BENCH_MODALITY';

export interface DicomNodeFigures {
  /** Seconds per run. */
  ours: number[];
  orthanc: number[];
}

async function timedSend(port: number, calledAe: string, files: string[]): Promise<number> {
  const started = performance.now();
  await run('dcmsend', ['-aet', CALLING_AE, '-aec', calledAe, '127.0.0.1', String(port), ...files], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return (performance.now() - started) / 1000;
}

/**
 * On a server and embedded database of its own: the node is registered for the demo physician
 * with the admin command while the server is stopped (the embedded database has one user).
 */
export async function dicomNodeFigures(dataDir: string, workDir: string): Promise<DicomNodeFigures> {
  await stopServer(await startAppServer(dataDir));
  await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'server/src/cli/admin.ts',
      'add-dicom-node',
      '--physician',
      'physician@example.com',
      '--ae-title',
      CALLING_AE,
    ],
    { cwd: root, env: { ...process.env, DATA_DIR: dataDir } },
  );
  const dicomPort = await freePort();
  const base = await startAppServer(dataDir, { DICOM_PORT: String(dicomPort), DICOM_AE_TITLE: 'RADARCHIVE' });
  const orthanc = await startOrthanc();
  const figures: DicomNodeFigures = { ours: [], orthanc: [] };
  try {
    const physician = new Api(base);
    await physician.signIn('physician@example.com', 'demo-password');
    // A short series into each first, untimed: the first association's start-up work is not the rate.
    const warmUp = await writeCtPhantom(path.join(workDir, 'node-warm-up'), ctPhantom({ slices: 20 }));
    await timedSend(dicomPort, 'RADARCHIVE', warmUp);
    await timedSend(orthanc.dicomPort, orthanc.aeTitle, warmUp);
    for (let index = 0; index < RUNS; index += 1) {
      const ours = await writeCtPhantom(
        path.join(workDir, `node-ours-${index}`),
        ctPhantom({ slices: SLICES }),
      );
      const theirs = await writeCtPhantom(
        path.join(workDir, `node-orthanc-${index}`),
        ctPhantom({ slices: SLICES }),
      );
      figures.ours.push(await timedSend(dicomPort, 'RADARCHIVE', ours));
      figures.orthanc.push(await timedSend(orthanc.dicomPort, orthanc.aeTitle, theirs));
    }
    // Everything sent was filed: RUNS studies of SLICES instances wait in the Incoming list.
    const incoming = incomingListSchema.parse(await physician.json('GET', '/api/user/incoming'));
    const filed = incoming.studies.filter((study) => study.study.instance_count === SLICES);
    if (filed.length !== RUNS) {
      throw new Error(`the node filed ${filed.length} of ${RUNS} studies`);
    }
    const stored = (await (await fetch(`${orthanc.base}/statistics`)).json()) as { CountInstances: number };
    if (stored.CountInstances !== RUNS * SLICES + 20) {
      throw new Error(`Orthanc stored ${stored.CountInstances} of ${RUNS * SLICES + 20} instances`);
    }
  } finally {
    await orthanc.stop();
    await stopServer(base);
  }
  return figures;
}

export function printDicomNodeTable(figures: DicomNodeFigures): void {
  const rate = (seconds: number) => `${(SLICES / seconds).toFixed(0)}/s`;
  console.log(`\nC-STORE ingest: dcmsend of a ${SLICES}-slice 512×512 CT over one association\n`);
  console.log('| run | ours | Orthanc | ours / Orthanc (speed) |');
  console.log('|---|---:|---:|---:|');
  figures.ours.forEach((ours, index) => {
    const orthanc = figures.orthanc[index]!;
    console.log(
      `| ${index + 1} | ${ours.toFixed(1)} s (${rate(ours)}) | ${orthanc.toFixed(1)} s (${rate(orthanc)}) | ${(orthanc / ours).toFixed(1)}× |`,
    );
  });
  console.log('\nGoal: at least 5× Orthanc.');
}
