/**
 * npm run bench: starts the production server on a fresh embedded database and a bare Fastify
 * server, measures each figure the issues ask for, and prints them as tables; then the same
 * server on a fresh database of the local PostgreSQL for the hot reads and archive growth.
 * Then DICOM studies beside Orthanc on a fresh embedded database.
 * `BENCH_ONLY=download` (a study's ZIP download beside cp -r), `BENCH_ONLY=node` (C-STORE ingest
 * by dcmsend into our DICOM node beside Orthanc's), `BENCH_ONLY=cluster` (lists and polling
 * through HAProxy with one and two instances on PostgreSQL), `BENCH_ONLY=storage` (STOW-RS and
 * frames with the files on the local disk and in an S3 bucket),
 * `BENCH_ONLY=embedded`, `BENCH_ONLY=postgres`, `BENCH_ONLY=dicom`, `BENCH_ONLY=viewer` (the
 * viewer alone) or `BENCH_ONLY=hostile` (hostile DICOM files) runs one part; with
 * `BENCH_DICOM_STOW_ONLY=1`, the DICOM part measures STOW-RS alone (bench/dicom.bench.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Api } from './lib/api.js';
import { CONNECTIONS, DURATION_SECONDS, printLoadTable } from './lib/load.js';
import { serverPid, startAppServer, startBareServer, stopServer, stopServers } from './lib/servers.js';
import { createBenchDatabase, startPostgresServer, type BenchDatabase } from './lib/postgres.js';
import {
  explainLists,
  fillPatientArchive,
  growthRows,
  HOT_CONNECTIONS,
  hotReadRows,
  printGrowthTable,
  signInDemoAccounts,
} from './hot-reads.bench.js';
import { identityRows } from './identity.bench.js';
import { imageListRows, makeWorkDir, thumbnailLatency, uploadThroughput } from './images.bench.js';
import { invoiceThroughput, pollingRows } from './second-opinion.bench.js';
import { pictureCropLatency, profileRows } from './profile.bench.js';
import { twoFactorSignInFigures } from './two-factor.bench.js';
import { pageWeightFigures, printPageWeightTable } from './page-weight.bench.js';
import { dicomFigures, printDicomTable, SLICES, STOW_ONLY, storePhantomStudy } from './dicom.bench.js';
import { printViewerTable, viewerFigures } from './viewer.bench.js';
import { hostileFigures, printHostileTable } from './hostile.bench.js';
import { rssMb } from './lib/process-usage.js';
import { hostileCorpus, printHostileCorpus } from './hostile-corpus.bench.js';
import { downloadFigures, printDownloadTable } from './download.bench.js';
import { dicomNodeFigures, printDicomNodeTable } from './dicom-node.bench.js';
import { clusterFigures, printClusterTable } from './cluster.bench.js';
import { printStorageTable, storageFigures } from './storage.bench.js';

const only = process.env.BENCH_ONLY;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-bench-'));
const workDir = makeWorkDir();
let database = null as BenchDatabase | null;

async function embeddedFigures(bareBase: string, base: string): Promise<void> {
  const patient = new Api(base);
  const token = await patient.signIn('patient@example.com', 'demo-password');
  const physician = new Api(base);
  await physician.signIn('physician@example.com', 'demo-password');
  const demoPatientUid = (await patient.json<{ uid: string }>('GET', '/api/user/me')).uid;

  const rows = await identityRows(bareBase, base, token);
  const upload = await uploadThroughput(physician, workDir);
  const thumbnails = await thumbnailLatency(physician, demoPatientUid);
  const listRows = await imageListRows(physician);
  const polling = await pollingRows(base, dataDir);
  const radiologists = await patient.json<{ radiologists: { uid: string }[] }>(
    'GET',
    '/api/user/radiologists',
  );
  const invoices = await invoiceThroughput(base, dataDir, physician, radiologists.radiologists[0]!.uid);
  const radiologist = new Api(base);
  await radiologist.signIn('radiologist@example.com', 'demo-password');
  const crops = await pictureCropLatency(radiologist);
  const profiles = await profileRows(patient, radiologist, crops.url);
  const signIns = await twoFactorSignInFigures(base);
  const pages = await pageWeightFigures(base);

  console.log(
    `\n${DURATION_SECONDS} s per row, ${CONNECTIONS} connections, ${os.cpus().length} cores, Node ${process.version}\n`,
  );
  printLoadTable([...rows, ...listRows, ...polling, ...profiles], rows[0]!.rps);
  console.log('\n| figure | value |');
  console.log('|---|---:|');
  console.log(
    `| tus upload of a ${upload.mb.toFixed(0)} MB image over loopback | ${upload.tusMbps.toFixed(0)} MB/s |`,
  );
  console.log(`| cp of the same file on the same disk | ${upload.cpMbps.toFixed(0)} MB/s |`);
  console.log(`| upload / cp | ${(upload.tusMbps / upload.cpMbps).toFixed(2)} |`);
  console.log(
    `| upload finished → thumbnail available, 2048×2048 JPEG (${(thumbnails.bytes / 1e6).toFixed(1)} MB), median of ${process.env.BENCH_THUMBNAIL_IMAGES ?? 50} | ${(thumbnails.median * 1000).toFixed(0)} ms (max ${(thumbnails.max * 1000).toFixed(0)} ms) |`,
  );
  console.log(
    `| POST /api/payment/{radiologist}/invoice (sandbox), 10 patients requesting and cancelling | ${invoices.perSecond.toFixed(0)} invoices/s, p99 ${invoices.p99.toFixed(0)} ms |`,
  );
  console.log(
    `| PUT /api/user/profile with a 4000×3000 JPEG (${(crops.bytes / 1e6).toFixed(1)} MB) → 100×100 crop served, median of ${crops.count} | ${(crops.median * 1000).toFixed(0)} ms (max ${(crops.max * 1000).toFixed(0)} ms) |`,
  );
  for (const figure of signIns) {
    console.log(
      `| ${figure.name}, ${CONNECTIONS} at a time | ${figure.perSecond.toFixed(0)} sign-ins/s, median ${figure.median.toFixed(0)} ms, p99 ${figure.p99.toFixed(0)} ms |`,
    );
  }
  printPageWeightTable(pages);
}

async function postgresFigures(bareBase: string): Promise<void> {
  database = await createBenchDatabase();
  if (!database) {
    console.log('\nPostgreSQL did not answer (BENCH_POSTGRES_URL): its rows are skipped.');
    return;
  }
  const base = await startPostgresServer(database.url);
  const accounts = await signInDemoAccounts(base);
  await fillPatientArchive(accounts);
  const hot = await hotReadRows(bareBase, accounts);
  const growth = await growthRows(database, accounts);
  console.log(`\nPostgreSQL ${HOT_CONNECTIONS} connections, ${os.cpus().length} cores\n`);
  printLoadTable(hot, hot[0]!.rps);
  printGrowthTable(growth);
  console.log(`\n${await explainLists(database, accounts)}`);
  // Neither the server nor PostgreSQL's clean-up of the grown archive may run beside the DICOM figures.
  await stopServer(base);
  await database.drop();
  database = null;
}

/**
 * On its own embedded database, so the archive the other figures filled does not weigh on it.
 * The viewer opens one of the studies stored beside Orthanc; alone, it stores one first.
 */
async function dicomFiguresBesideOrthanc(withOrthanc: boolean): Promise<void> {
  const dicomDataDir = path.join(dataDir, 'dicom');
  const base = await startAppServer(dicomDataDir);
  const physician = new Api(base);
  await physician.signIn('physician@example.com', 'demo-password');
  const patient = new Api(base);
  await patient.signIn('patient@example.com', 'demo-password');
  const patientUid = (await patient.json<{ uid: string }>('GET', '/api/user/me')).uid;
  if (withOrthanc) {
    printDicomTable(await dicomFigures(physician, patientUid, path.join(workDir, 'dicom')));
  } else {
    await storePhantomStudy(physician, patientUid, workDir);
  }
  if (!STOW_ONLY) {
    printViewerTable(await viewerFigures(patient, patientUid, SLICES));
  }
  await stopServer(base);
}

/**
 * Hostile DICOM files on a server and embedded database of their own, restarted once on its data
 * folder before it is measured: a server that made its embedded database (PGlite's initdb) keeps
 * that memory for the rest of its life, about 500 MB more than every later start, which is not what
 * hostile files cost.
 */
async function hostileFiguresAlone(): Promise<void> {
  await stopServer(await startAppServer(path.join(dataDir, 'hostile')));
  const base = await startAppServer(path.join(dataDir, 'hostile'));
  const physician = new Api(base);
  await physician.signIn('physician@example.com', 'demo-password');
  const patient = new Api(base);
  await patient.signIn('patient@example.com', 'demo-password');
  const patientUid = (await patient.json<{ uid: string }>('GET', '/api/user/me')).uid;
  const startRssMb = rssMb(serverPid(base));
  printHostileCorpus(await hostileCorpus(physician, patientUid, serverPid(base)), startRssMb);
  printHostileTable(await hostileFigures(physician, patientUid, serverPid(base)));
  await stopServer(base);
}

/** A study's ZIP download on a server and embedded database of its own. */
async function downloadFiguresAlone(): Promise<void> {
  const base = await startAppServer(path.join(dataDir, 'download'));
  const physician = new Api(base);
  await physician.signIn('physician@example.com', 'demo-password');
  const patient = new Api(base);
  await patient.signIn('patient@example.com', 'demo-password');
  const patientUid = (await patient.json<{ uid: string }>('GET', '/api/user/me')).uid;
  printDownloadTable(await downloadFigures(physician, patient, patientUid, path.join(workDir, 'download')));
  await stopServer(base);
}

try {
  if (only === 'download') {
    await downloadFiguresAlone();
  } else if (only === 'storage') {
    printStorageTable(await storageFigures(dataDir, workDir));
  } else if (only === 'cluster') {
    printClusterTable(await clusterFigures(dataDir));
  } else if (only === 'node') {
    printDicomNodeTable(await dicomNodeFigures(path.join(dataDir, 'node'), workDir));
  } else if (only === 'hostile') {
    await hostileFiguresAlone();
  } else if (only !== 'dicom' && only !== 'viewer') {
    const bareBase = await startBareServer();
    if (only !== 'postgres') {
      const base = await startAppServer(dataDir);
      await embeddedFigures(bareBase, base);
      // Its background work must not run beside the PostgreSQL figures.
      await stopServer(base);
    }
    if (only !== 'embedded') {
      await postgresFigures(bareBase);
    }
    await stopServer(bareBase);
  }
  if (only === undefined || only === 'dicom' || only === 'viewer') {
    await dicomFiguresBesideOrthanc(only !== 'viewer');
  }
  if (only === undefined) {
    await hostileFiguresAlone();
    await downloadFiguresAlone();
    printDicomNodeTable(await dicomNodeFigures(path.join(dataDir, 'node'), workDir));
    printClusterTable(await clusterFigures(dataDir));
    printStorageTable(await storageFigures(dataDir, workDir));
  }
} finally {
  await stopServers();
  await database?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(workDir, { recursive: true, force: true });
}
