/**
 * DICOM studies beside Orthanc, the reference archive, on the same generated files in one run:
 * a 500-slice 512×512 16-bit CT series (dcmtk's dump2dcm writes it; nothing is downloaded),
 * stored by STOW-RS, searched by QIDO-RS, read by WADO-RS (metadata and frames), and filed from a
 * folder chosen in Chromium until its preview can be shown. The STOW-RS studies also go to the
 * floor (bench/stow-floor-server.ts): the server's own parts without the product's layers.
 *
 * `BENCH_DICOM_STOW_ONLY=1` measures the STOW-RS rows alone (no searches, reads, folders or viewer),
 * a few minutes instead of about twelve, for work on storing.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { CHROMIUM_LAUNCH } from '../e2e/chromium.js';
import { ctPhantom, writeCtPhantom, type CtPhantom } from '../server/test/ct-phantom.js';
import { startOrthanc, type OrthancServer } from '../server/test/orthanc.js';
import { inParallel, type Image } from '@ra/shared';
import type { Api } from './lib/api.js';
import { median } from './lib/measure.js';
import { cpuMs } from './lib/process-usage.js';
import { serverPid, startStowFloorServer, stopServer } from './lib/servers.js';

export const SLICES = Number(process.env.BENCH_DICOM_SLICES ?? 500);
/** Only the STOW-RS rows (see the header). */
export const STOW_ONLY = process.env.BENCH_DICOM_STOW_ONLY === '1';
const STOW_BATCH = 10;
const STOW_CONCURRENCY = 2;

/** A way clients send studies by STOW-RS: instances per request, and requests at a time. */
interface StowShape {
  label: string;
  batch: number;
  concurrency: number;
  /** Timed studies, each stored by both servers in turn; the figure is their median. */
  runs: number;
}
const FRAME_PARALLEL = 6;
/** Timed requests per latency row, after a few untimed ones. */
const SEARCH_RUNS = 200;
const LIST_RUNS = 40;
const WARM_UP = 3;
/** Timed STOW-RS runs, each storing a study of its own: one run swings with the machine, the median less. */
const STOW_RUNS = 5;
/**
 * The request shapes measured: one instance per request as a gateway forwards what a modality
 * sends, small batches, and a whole study in one request as a viewer or a migration sends it.
 */
const STOW_SHAPES: StowShape[] = [
  { label: 'one instance per request, 2 at a time', batch: 1, concurrency: 2, runs: STOW_RUNS },
  {
    label: `batches of ${STOW_BATCH}, ${STOW_CONCURRENCY} at a time`,
    batch: STOW_BATCH,
    concurrency: STOW_CONCURRENCY,
    runs: STOW_RUNS,
  },
  { label: 'a whole study in one request', batch: Number.MAX_SAFE_INTEGER, concurrency: 1, runs: 3 },
];
/** Timed choices of a folder in Chromium, each of a study of its own, after an untimed one. */
const FOLDER_RUNS = 3;
/** The demo patient, so that the files name the patient they are filed under. */
const DEMO_PATIENT_IN_FILES = { patientName: 'Patient^Alex', birthDate: '19900704' };
const DEMO_PATIENT_LABEL = 'Alex Patient (patient@example.com)';
const DEMO_PHYSICIAN = { email: 'physician@example.com', password: 'demo-password' };
const FRAME_ACCEPT = 'multipart/related; type="application/octet-stream"; transfer-syntax=*';

/** One DICOMweb server as the bench calls it. */
interface Target {
  name: string;
  root: string;
  headers: Record<string, string>;
  /** Query string of a STOW-RS request. */
  stowQuery: string;
  /** Its process, whose processor time a STOW-RS run reads. */
  pid: number;
}

export interface LatencyFigure {
  p50: number;
  p95: number;
}

export interface DicomFigures {
  /** Instances stored per second, by STOW_SHAPES. */
  stowPerSecond: number[];
  /** The server's processor time per instance stored, all its threads, in ms, by STOW_SHAPES. */
  stowCpuMs: number[];
  /** The rest is not measured with STOW_ONLY. */
  reads?: {
    studySearch: LatencyFigure;
    instanceList: LatencyFigure;
    seriesMetadata: LatencyFigure;
    framesSequential: number;
    framesParallel: number;
    folder: FolderFigure;
  };
}

/** Seconds from choosing the folder until the study is filed, and until its preview is served. */
interface FolderFigure {
  filed: number;
  total: number;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))]!;
}

async function request(target: Target, url: string, accept: string, init: RequestInit = {}) {
  const response = await fetch(`${target.root}${url}`, {
    ...init,
    headers: { ...target.headers, accept, ...(init.headers as Record<string, string>) },
  });
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok) {
    throw new Error(`${target.name} ${url}: ${response.status} ${body.toString().slice(0, 300)}`);
  }
  return body;
}

function multipartOf(files: Buffer[], boundary: string): Buffer {
  const parts = files.flatMap((file) => [
    Buffer.from(`--${boundary}\r\nContent-Type: application/dicom\r\n\r\n`),
    file,
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
}

/** A STOW-RS run: instances stored per second, and the server's processor time per instance. */
interface StowRun {
  perSecond: number;
  cpuMs: number;
}

/** STOW-RS of every file in requests of the shape's size, the shape's number at a time. */
async function stowRun(target: Target, files: Buffer[], shape: StowShape): Promise<StowRun> {
  const batches: Buffer[][] = [];
  for (let start = 0; start < files.length; start += shape.batch) {
    batches.push(files.slice(start, start + shape.batch));
  }
  const boundary = 'bench-stow-boundary-7d1f';
  const bodies = batches.map((batch) => multipartOf(batch, boundary));
  const cpuBefore = cpuMs(target.pid);
  const started = performance.now();
  await inParallel(bodies, shape.concurrency, async (body) => {
    await request(target, `/studies${target.stowQuery}`, 'application/dicom+json', {
      method: 'POST',
      headers: { 'content-type': `multipart/related; type="application/dicom"; boundary=${boundary}` },
      body,
    });
  });
  return {
    perSecond: files.length / ((performance.now() - started) / 1000),
    cpuMs: (cpuMs(target.pid) - cpuBefore) / files.length,
  };
}

/** Our server as the bench calls it, filing under the patient. */
function ourTarget(physician: Api, patientUid: string): Target {
  return {
    name: 'ours',
    root: `${physician.base}/dicomweb`,
    headers: { authorization: physician.authorization },
    stowQuery: `?patient=${patientUid}`,
    pid: serverPid(physician.base),
  };
}

/** The medians of each request shape's runs. */
function stowFigures(shapes: StowRun[][]): Pick<DicomFigures, 'stowPerSecond' | 'stowCpuMs'> {
  return {
    stowPerSecond: shapes.map((shape) => median(shape.map((run) => run.perSecond))),
    stowCpuMs: shapes.map((shape) => median(shape.map((run) => run.cpuMs))),
  };
}

/** Sequential requests of one URL: p50 and p95 in milliseconds. */
async function latency(target: Target, url: string, runs: number, accept: string): Promise<LatencyFigure> {
  for (let run = 0; run < WARM_UP; run += 1) {
    await request(target, url, accept);
  }
  const times: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now();
    await request(target, url, accept);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

/** The first frame of every instance, `parallel` requests at a time: frames/s. */
async function frameRate(target: Target, frameUrls: string[], parallel: number): Promise<number> {
  const started = performance.now();
  await inParallel(frameUrls, parallel, async (url) => {
    await request(target, url, FRAME_ACCEPT);
  });
  return frameUrls.length / ((performance.now() - started) / 1000);
}

type Dataset = Record<string, { Value?: unknown[] }>;

async function searchAndRead(target: Target, phantom: CtPhantom) {
  const series = `/studies/${phantom.studyUid}/series/${phantom.seriesUid}`;
  const json = 'application/dicom+json';
  const studySearch = await latency(
    target,
    `/studies?PatientName=${encodeURIComponent('Patient*')}&StudyDate=20260101-`,
    SEARCH_RUNS,
    json,
  );
  const instanceList = await latency(target, `${series}/instances`, LIST_RUNS, json);
  const seriesMetadata = await latency(target, `${series}/metadata`, LIST_RUNS, json);
  const instances = JSON.parse((await request(target, `${series}/instances`, json)).toString()) as Dataset[];
  if (instances.length !== phantom.slices) {
    throw new Error(`${target.name} lists ${instances.length} instances of ${phantom.slices}`);
  }
  const frameUrls = instances.map(
    (instance) => `${series}/instances/${String(instance['00080018']!.Value![0])}/frames/1`,
  );
  return {
    studySearch,
    instanceList,
    seriesMetadata,
    framesSequential: await frameRate(target, frameUrls, 1),
    framesParallel: await frameRate(target, frameUrls, FRAME_PARALLEL),
  };
}

async function poll<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 300_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await read();
    if (value !== undefined) {
      return value;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Resolves once `condition` (a JavaScript expression) holds in the page, checked at once and on
 * every change of the page: Playwright's own waits poll every 500 ms after their first second,
 * which would round each figure up by as much, on either server.
 */
function whenPageShows(page: Page, condition: string): Promise<unknown> {
  return page.evaluate(`new Promise((resolve) => {
    const check = () => { if (${condition}) { observer.disconnect(); resolve(true); } };
    const observer = new MutationObserver(check);
    observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
    check();
  })`);
}

/**
 * Ours: the physician chooses the folder on the Upload page and files it; the clock stops when the
 * study's preview is served.
 */
async function ourFolderToPreview(physician: Api, patientUid: string, folder: string, study: string) {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const context = await browser.newContext({ baseURL: physician.base });
    // The session cookie lands in this context; the page's first refresh turns it into a token.
    await context.request.post('/api/auth/signin', { data: DEMO_PHYSICIAN });
    const page = await context.newPage();
    await page.goto('/upload');
    await page.getByLabel('Patient').selectOption({ label: DEMO_PATIENT_LABEL });
    const started = performance.now();
    await page.getByLabel('Choose a folder').setInputFiles(folder);
    // The page reads the first bytes of every file to tell DICOM from the rest, then lets it be sent.
    await whenPageShows(
      page,
      `[...document.querySelectorAll('button')].some((b) => b.textContent.trim() === 'Complete Upload' && !b.disabled)`,
    );
    const isFiled = whenPageShows(
      page,
      `/Filed 1 study with \\d+ instances\\./.test(document.body.textContent)`,
    );
    await page.getByRole('button', { name: 'Complete Upload' }).click();
    await isFiled;
    const filed = performance.now();
    const preview = await poll('our preview', async () => {
      const { images } = await physician.json<{ images: Image[] }>('GET', `/api/user/${patientUid}/images`);
      const item = images.find((image) => image.study?.study_instance_uid === study);
      return item?.thumbnail_url ? item.url : undefined;
    });
    const answer = await fetch(new URL(preview, physician.base), {
      headers: { authorization: physician.authorization },
    });
    if (!answer.ok || !answer.headers.get('content-type')?.startsWith('image/')) {
      throw new Error(`our preview: ${answer.status}`);
    }
    await answer.arrayBuffer();
    const done = performance.now();
    return { total: (done - started) / 1000, filed: (filed - started) / 1000 };
  } finally {
    await browser.close();
  }
}

/**
 * Orthanc: the same files chosen on its Explorer's upload page (it takes files, not folders); the
 * clock stops when the middle instance's preview is served.
 */
async function orthancFolderToPreview(orthanc: OrthancServer, files: string[], series: string) {
  const browser = await chromium.launch(CHROMIUM_LAUNCH);
  try {
    const page = await browser.newPage();
    await page.goto(`${orthanc.base}/app/explorer.html#upload`);
    const started = performance.now();
    await page.locator('#fileupload').setInputFiles(files);
    const isDone = whenPageShows(
      page,
      `/^(Done|Failure)$/.test(document.querySelector('#progress .label')?.textContent.trim() ?? '')`,
    );
    await page.locator('#upload-button').click();
    await isDone;
    const filed = performance.now();
    const found = (await (
      await fetch(`${orthanc.base}/tools/lookup`, { method: 'POST', body: series })
    ).json()) as {
      ID: string;
    }[];
    const { Instances } = (await (await fetch(`${orthanc.base}/series/${found[0]!.ID}`)).json()) as {
      Instances: string[];
    };
    if (Instances.length !== files.length) {
      throw new Error(`Orthanc filed ${Instances.length} of ${files.length} files`);
    }
    const middle = Instances[Math.floor(Instances.length / 2)]!;
    const answer = await fetch(`${orthanc.base}/instances/${middle}/preview`);
    if (!answer.ok) {
      throw new Error(`Orthanc's preview: ${answer.status}`);
    }
    await answer.arrayBuffer();
    const done = performance.now();
    return { total: (done - started) / 1000, filed: (filed - started) / 1000 };
  } finally {
    await browser.close();
  }
}

/** Stores a phantom study for the patient by STOW-RS, for figures that need one (the viewer's). */
export async function storePhantomStudy(physician: Api, patientUid: string, workDir: string): Promise<void> {
  const phantom = ctPhantom({ slices: SLICES, ...DEMO_PATIENT_IN_FILES });
  const written = await writeCtPhantom(path.join(workDir, 'viewer'), phantom);
  const files = await Promise.all(written.map((file) => fs.readFile(file)));
  await stowRun(ourTarget(physician, patientUid), files, STOW_SHAPES[1]!);
}

export async function dicomFigures(
  physician: Api,
  patientUid: string,
  workDir: string,
): Promise<StowFigureSet> {
  const phantomFolders = async (name: string, count: number) => {
    const folders: { phantom: CtPhantom; dir: string; files: string[] }[] = [];
    for (let study = 0; study < count; study += 1) {
      const phantom = ctPhantom({ slices: SLICES, ...DEMO_PATIENT_IN_FILES });
      const dir = path.join(workDir, `${name}-${study}`);
      folders.push({ phantom, dir, files: await writeCtPhantom(dir, phantom) });
    }
    return folders;
  };
  const warmUps = await phantomFolders('warm-up', STOW_SHAPES.length);
  const timed: Awaited<ReturnType<typeof phantomFolders>>[] = [];
  for (const [index, shape] of STOW_SHAPES.entries()) {
    timed.push(await phantomFolders(`stow-${index}`, shape.runs));
  }
  // The first timed study of small batches is the one searched and read.
  const stowed = timed[1]![0]!.phantom;
  // A folder of its own for every choice in Chromium: the first untimed, as for STOW-RS.
  const chosen = STOW_ONLY ? [] : await phantomFolders('folder', 1 + FOLDER_RUNS);
  const readFiles = (files: string[]) => Promise.all(files.map((file) => fs.readFile(file)));

  // The floor first: if Orthanc then fails to start, the bench's own clean-up stops the floor.
  const floorBase = await startStowFloorServer();
  const orthanc = await startOrthanc();
  try {
    const ours = ourTarget(physician, patientUid);
    const reference: Target = {
      name: 'Orthanc',
      root: orthanc.dicomweb,
      headers: {},
      stowQuery: '',
      pid: orthanc.pid,
    };
    const floor: Target = {
      name: 'floor',
      root: floorBase,
      headers: {},
      stowQuery: '',
      pid: serverPid(floorBase),
    };
    const servers = [
      {
        target: ours,
        folderToPreview: ({ dir, phantom }: (typeof chosen)[number]) =>
          ourFolderToPreview(physician, patientUid, dir, phantom.studyUid),
      },
      {
        target: reference,
        folderToPreview: ({ files, phantom }: (typeof chosen)[number]) =>
          orthancFolderToPreview(orthanc, files, phantom.seriesUid),
      },
    ];
    // Studies of their own first, untimed, one in each request shape, so neither server is measured
    // while it warms up: ours runs its first few hundred requests through code the JIT has not
    // optimised yet (the embedded database's WebAssembly and its statements' plans included), and a
    // server in use has long done that. Warming counts in requests, not instances: a study sent in
    // batches of ten is fifty requests, one sent an instance at a time five hundred.
    // The floor stores the same studies in the same turns, for STOW-RS only.
    const stowTargets = [...servers.map(({ target }) => target), floor];
    for (const [index, { files }] of warmUps.entries()) {
      const bytes = await readFiles(files);
      for (const target of stowTargets) {
        await stowRun(target, bytes, STOW_SHAPES[index]!);
      }
    }
    // Then each timed study by one server and the others in turn, so all meet the machine as it is.
    const runs = stowTargets.map(() => STOW_SHAPES.map(() => [] as StowRun[]));
    for (const [shapeIndex, shape] of STOW_SHAPES.entries()) {
      for (const { files } of timed[shapeIndex]!) {
        const bytes = await readFiles(files);
        for (const [index, target] of stowTargets.entries()) {
          runs[index]![shapeIndex]!.push(await stowRun(target, bytes, shape));
        }
      }
    }
    const floorFigures = stowFigures(runs[2]!);
    if (STOW_ONLY) {
      return { ours: stowFigures(runs[0]!), orthanc: stowFigures(runs[1]!), floor: floorFigures };
    }
    const reads: Awaited<ReturnType<typeof searchAndRead>>[] = [];
    for (const { target } of servers) {
      reads.push(await searchAndRead(target, stowed));
    }
    const folders = servers.map(() => [] as FolderFigure[]);
    for (const folder of chosen) {
      for (const [index, { folderToPreview }] of servers.entries()) {
        folders[index]!.push(await folderToPreview(folder));
      }
    }
    const [oursFigures, orthancFigures] = servers.map((_, index) => ({
      ...stowFigures(runs[index]!),
      reads: {
        ...reads[index]!,
        folder: {
          filed: median(folders[index]!.slice(1).map((figure) => figure.filed)),
          total: median(folders[index]!.slice(1).map((figure) => figure.total)),
        },
      },
    }));
    return { ours: oursFigures!, orthanc: orthancFigures!, floor: floorFigures };
  } finally {
    await stopServer(floorBase);
    await orthanc.stop();
  }
}

/** Ours and Orthanc, and the floor under our STOW-RS (bench/stow-floor-server.ts). */
export interface StowFigureSet {
  ours: DicomFigures;
  orthanc: DicomFigures;
  floor: Pick<DicomFigures, 'stowPerSecond' | 'stowCpuMs'>;
}

export function printDicomTable({ ours, orthanc, floor }: StowFigureSet): void {
  const rateCells = (mine: number, theirs: number, unit: string) =>
    `${mine.toFixed(0)} ${unit} | ${theirs.toFixed(0)} ${unit} | ${(mine / theirs).toFixed(1)}×`;
  console.log(`\nDICOM beside Orthanc: ${SLICES}-slice 512×512 16-bit CT, same files, same run\n`);
  console.log('| figure | ours | Orthanc | ours faster by |');
  console.log('|---|---:|---:|---:|');
  for (const [index, shape] of STOW_SHAPES.entries()) {
    console.log(
      `| STOW-RS, ${shape.label}, median of ${shape.runs} studies | ${rateCells(ours.stowPerSecond[index]!, orthanc.stowPerSecond[index]!, 'instances/s')} |`,
    );
  }
  // What each server's processes spent, on every thread: on two cores, beside the bench's own
  // client, the rows above are bounded by it as much as by any wait.
  for (const [index, shape] of STOW_SHAPES.entries()) {
    const [mine, theirs] = [ours.stowCpuMs[index]!, orthanc.stowCpuMs[index]!];
    console.log(
      `| STOW-RS, ${shape.label}: server processor time per instance (less is better) | ${mine.toFixed(1)} ms | ${theirs.toFixed(1)} ms | ${(theirs / mine).toFixed(1)}× |`,
    );
  }
  if (ours.reads && orthanc.reads) {
    printReadRows(ours.reads, orthanc.reads);
  }
  printFloorTable(ours, floor);
}

/** How far our STOW-RS is above what the server's parts alone cost, by request shape. */
function printFloorTable(ours: DicomFigures, floor: StowFigureSet['floor']) {
  console.log(
    "\nSTOW-RS through the server's own parts alone, without the product's layers (the floor, bench/stow-floor-server.ts), same files, same turns\n",
  );
  console.log('| request shape | floor | ours | ours / floor |');
  console.log('|---|---:|---:|---:|');
  for (const [index, shape] of STOW_SHAPES.entries()) {
    const [mine, least] = [ours.stowPerSecond[index]!, floor.stowPerSecond[index]!];
    console.log(
      `| ${shape.label}: instances/s | ${least.toFixed(0)} | ${mine.toFixed(0)} | ${(mine / least).toFixed(2)} |`,
    );
    const [mineMs, leastMs] = [ours.stowCpuMs[index]!, floor.stowCpuMs[index]!];
    console.log(
      `| ${shape.label}: processor time per instance | ${leastMs.toFixed(1)} ms | ${mineMs.toFixed(1)} ms | ${(mineMs / leastMs).toFixed(2)} |`,
    );
  }
}

function printReadRows(
  ours: NonNullable<DicomFigures['reads']>,
  orthanc: NonNullable<DicomFigures['reads']>,
) {
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const latencyCells = (mine: LatencyFigure, theirs: LatencyFigure) =>
    `${ms(mine.p50)} / ${ms(mine.p95)} | ${ms(theirs.p50)} / ${ms(theirs.p95)} | ${(theirs.p50 / mine.p50).toFixed(1)}×`;
  const rateCells = (mine: number, theirs: number, unit: string) =>
    `${mine.toFixed(0)} ${unit} | ${theirs.toFixed(0)} ${unit} | ${(mine / theirs).toFixed(1)}×`;
  console.log(
    `| QIDO-RS study search (name wildcard, date range), p50 / p95 | ${latencyCells(ours.studySearch, orthanc.studySearch)} |`,
  );
  console.log(
    `| QIDO-RS ${SLICES}-instance list, p50 / p95 | ${latencyCells(ours.instanceList, orthanc.instanceList)} |`,
  );
  console.log(
    `| WADO-RS series metadata, ${SLICES} instances, p50 / p95 | ${latencyCells(ours.seriesMetadata, orthanc.seriesMetadata)} |`,
  );
  console.log(
    `| WADO-RS frames, sequential | ${rateCells(ours.framesSequential, orthanc.framesSequential, 'frames/s')} |`,
  );
  console.log(
    `| WADO-RS frames, ${FRAME_PARALLEL} in parallel | ${rateCells(ours.framesParallel, orthanc.framesParallel, 'frames/s')} |`,
  );
  const seconds = (mine: number, theirs: number) =>
    `${mine.toFixed(1)} s | ${theirs.toFixed(1)} s | ${(theirs / mine).toFixed(1)}×`;
  console.log(
    `| ${SLICES} files chosen in Chromium → study filed, median of ${FOLDER_RUNS} folders | ${seconds(ours.folder.filed, orthanc.folder.filed)} |`,
  );
  console.log(
    `| ${SLICES} files chosen in Chromium → study preview served, median of ${FOLDER_RUNS} folders | ${seconds(ours.folder.total, orthanc.folder.total)} |`,
  );
}

/**
 * One phantom study stored by STOW-RS in batches (the middle request shape), then the first frame
 * of each instance read back `FRAME_PARALLEL` at a time: for comparing storage drivers
 * (bench/storage.bench.ts). Instances/s and frames/s.
 */
export async function stowAndFrameRates(
  physician: Api,
  patientUid: string,
  workDir: string,
): Promise<{ stowPerSecond: number; framesPerSecond: number }> {
  const phantom = ctPhantom({ slices: SLICES, ...DEMO_PATIENT_IN_FILES });
  const written = await writeCtPhantom(workDir, phantom);
  const files = await Promise.all(written.map((file) => fs.readFile(file)));
  const target = ourTarget(physician, patientUid);
  const stowPerSecond = (await stowRun(target, files, STOW_SHAPES[1]!)).perSecond;
  const series = `/studies/${phantom.studyUid}/series/${phantom.seriesUid}`;
  const instances = JSON.parse(
    (await request(target, `${series}/instances`, 'application/dicom+json')).toString(),
  ) as Dataset[];
  const frameUrls = instances.map(
    (instance) => `${series}/instances/${String(instance['00080018']!.Value![0])}/frames/1`,
  );
  return { stowPerSecond, framesPerSecond: await frameRate(target, frameUrls, FRAME_PARALLEL) };
}
