/**
 * Hostile DICOM files against the production server: a deflate bomb (about 400 KB inflating to
 * 400 MB), a 2 KB JPEG-LS frame declaring 12000 × 12000 pixels and a million private elements,
 * stored by STOW-RS and read by WADO-RS rendered, while /api/health is asked and the server's
 * resident memory watched; and the frame rate of a 400-frame RLE instance of about 100 MB.
 * Every file is built here (server/test/dicom-bombs.ts, with dcmtk); nothing is downloaded.
 */
import { on } from 'node:events';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { Worker } from 'node:worker_threads';
import {
  deflateBomb,
  elementBomb,
  hostileUids,
  multiFrameRle,
  pixelBomb,
  type HostileUids,
} from '../server/test/dicom-bombs.js';
import {
  multipartRelatedContentType,
  newBoundary,
  writeMultipartRelated,
} from '../server/src/lib/multipart-related/multipart-related.js';
import type { Api } from './lib/api.js';
import type { WatchData, WatchReport } from './lib/health-watch.js';
import { rssMb } from './lib/process-usage.js';

const RLE = '1.2.840.10008.1.2.5';
const RLE_FRAMES = 400;
const RLE_SIDE = 512;
/** Rendered reads of each bomb while /api/health is timed. */
const BOMB_READS = 6;
const HEALTH_EVERY_MS = 10;

export interface HostileFigures {
  healthP99: number;
  healthMax: number;
  healthSamples: number;
  peakRssMb: number;
  /** The server's resident memory just before the hostile files are sent. */
  startRssMb: number;
  stowStatus: number;
  renderedStatuses: Record<string, number[]>;
  rleFramesPerSecond: number;
  rleDecodedFramesPerSecond: number;
  rleFileMb: number;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** A STOW-RS request of `files` to `query` (e.g. "?patient=…"): the response, its body unread. */
export async function postStow(physician: Api, query: string, files: Buffer[]): Promise<Response> {
  const boundary = newBoundary();
  const body = await buffer(
    writeMultipartRelated(
      Readable.from(files.map((file) => ({ contentType: 'application/dicom', body: file }))),
      boundary,
    ),
  );
  return fetch(`${physician.base}/dicomweb/studies${query}`, {
    method: 'POST',
    headers: {
      authorization: physician.authorization,
      'content-type': multipartRelatedContentType(boundary, 'application/dicom'),
      accept: 'application/dicom+json',
    },
    body,
  });
}

async function stow(physician: Api, patientUid: string, files: Buffer[]): Promise<number> {
  const response = await postStow(physician, `?patient=${patientUid}&confirm_patient_mismatch=true`, files);
  await response.arrayBuffer();
  return response.status;
}

const instancePath = (uids: HostileUids) =>
  `/dicomweb/studies/${uids.study}/series/${uids.series}/instances/${uids.sop}`;

async function get(physician: Api, path: string, accept: string): Promise<{ status: number; bytes: number }> {
  const response = await fetch(`${physician.base}${path}`, {
    headers: { authorization: physician.authorization, accept },
  });
  return { status: response.status, bytes: (await response.arrayBuffer()).byteLength };
}

/** Runs `work` while /api/health is timed every few milliseconds and the server's memory sampled. */
export async function watched<T>(base: string, pid: number, work: () => Promise<T>) {
  const workerData: WatchData = { base, pid, healthEveryMs: HEALTH_EVERY_MS };
  // A thread of its own (lib/health-watch.ts, through its entry).
  const watch = new Worker(new URL('./lib/health-watch-entry.js', import.meta.url), { workerData });
  const messages = on(watch, 'message');
  await messages.next();
  try {
    const result = await work();
    watch.postMessage('stop');
    const { value } = (await messages.next()) as { value: [WatchReport] };
    return { result, ...value[0] };
  } finally {
    await watch.terminate();
  }
}

export async function hostileFigures(
  physician: Api,
  patientUid: string,
  serverPid: number,
): Promise<HostileFigures> {
  // Four deflate bombs of about 400 KB (as in the penetration test), the pixel bomb, the element bomb.
  const deflated = [hostileUids(), hostileUids(), hostileUids(), hostileUids()];
  const pixel = hostileUids();
  const elements = hostileUids();
  const files = [
    ...(await Promise.all(deflated.map((uids) => deflateBomb(uids, 400 * 1024 ** 2)))),
    await pixelBomb(pixel),
    elementBomb(elements, 1_000_000),
  ];
  const renderedStatuses: Record<string, number[]> = { deflate: [], pixel: [], elements: [] };
  const startRssMb = rssMb(serverPid);
  const {
    result: stowStatus,
    latencies,
    peakRss,
  } = await watched(physician.base, serverPid, async () => {
    const status = await stow(physician, patientUid, files);
    const read = async (name: string, uids: HostileUids) => {
      for (let i = 0; i < BOMB_READS; i += 1) {
        renderedStatuses[name]!.push(
          (await get(physician, `${instancePath(uids)}/rendered`, 'image/jpeg')).status,
        );
      }
    };
    await Promise.all([read('deflate', deflated[0]!), read('pixel', pixel), read('elements', elements)]);
    return status;
  });

  // The many-frame RLE instance, read frame by frame as stored and decoded.
  const rleUids = hostileUids();
  const rle = await multiFrameRle(rleUids, { rows: RLE_SIDE, columns: RLE_SIDE, frames: RLE_FRAMES });
  const rleStatus = await stow(physician, patientUid, [rle]);
  if (rleStatus !== 200) {
    throw new Error(`STOW-RS of the RLE instance: ${rleStatus}`);
  }
  const framesPerSecond = async (accept: string) => {
    const started = performance.now();
    for (let frame = 1; frame <= RLE_FRAMES; frame += 1) {
      const { status } = await get(physician, `${instancePath(rleUids)}/frames/${frame}`, accept);
      if (status !== 200) {
        throw new Error(`frame ${frame}: ${status}`);
      }
    }
    return RLE_FRAMES / ((performance.now() - started) / 1000);
  };
  const rleFramesPerSecond = await framesPerSecond(
    `multipart/related; type="image/dicom-rle"; transfer-syntax=${RLE}`,
  );
  const rleDecodedFramesPerSecond = await framesPerSecond(
    'multipart/related; type="application/octet-stream"',
  );
  return {
    healthP99: percentile(latencies, 99),
    healthMax: Math.max(...latencies),
    healthSamples: latencies.length,
    peakRssMb: peakRss,
    startRssMb,
    stowStatus,
    renderedStatuses,
    rleFramesPerSecond,
    rleDecodedFramesPerSecond,
    rleFileMb: rle.length / 1e6,
  };
}

export function printHostileTable(figures: HostileFigures): void {
  const statuses = Object.entries(figures.renderedStatuses)
    .map(([name, list]) => `${name} ${[...new Set(list)].join('/')}`)
    .join(', ');
  console.log('\n| hostile DICOM | value | goal |');
  console.log('|---|---:|---:|');
  console.log(
    `| /api/health p99 while a deflate bomb, a pixel bomb and an element bomb are read via /rendered (${figures.healthSamples} samples; max ${figures.healthMax.toFixed(0)} ms; rendered: ${statuses}) | ${figures.healthP99.toFixed(0)} ms | < 100 ms |`,
  );
  console.log(
    `| peak server RSS while 4 deflate bombs, the pixel bomb and the element bomb are stored (STOW ${figures.stowStatus}) and rendered (${figures.startRssMb.toFixed(0)} MB before) | ${figures.peakRssMb.toFixed(0)} MB | < 1 GB |`,
  );
  console.log(
    `| frames of a ${RLE_FRAMES}-frame RLE instance (${RLE_SIDE}×${RLE_SIDE}, ${figures.rleFileMb.toFixed(0)} MB) over /frames, one by one, as stored | ${figures.rleFramesPerSecond.toFixed(0)} frames/s | ≥ 100 frames/s |`,
  );
  console.log(
    `| the same frames decoded (uncompressed) | ${figures.rleDecodedFramesPerSecond.toFixed(0)} frames/s | |`,
  );
}
