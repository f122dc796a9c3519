import { Worker } from 'node:worker_threads';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { createPatient, createPhysician, signIn } from '../../../test/factories.js';
import {
  deflateBomb,
  elementBomb,
  fragmentsOf,
  hostileUids,
  multiFrameRle,
  multiFrameSamples,
  pixelBomb,
  type HostileUids,
} from '../../../test/dicom-bombs.js';
import { stow } from '../../../test/stow.js';
import { auditLog } from '../../db/schema/audit.js';
import { dicomInstances } from '../../db/schema/studies.js';
import { linkPatient } from '../patients/patients.repository.js';

/*
 * The files of a penetration test, stored and read back through the real HTTP server: none of them
 * may hold the main thread (measured as /api/health answering while they are read) or make the
 * server allocate what they declare.
 */

const RLE = '1.2.840.10008.1.2.5';
/**
 * The slowest /api/health these tests accept while a hostile file is read. A read on the main thread
 * held it for 4 to 20 s; the 100 ms goal itself is measured by the bench on a quiet machine
 * (bench/hostile.bench.ts), while here other test files share the two cores and a 277 ms answer
 * was seen in CI with nothing on the main thread: 1 s still tells the two apart by a factor of four.
 */
const HELD_MS = 1_000;
const OCTET_STREAM = 'multipart/related; type="application/octet-stream"';

let t: TestApp;
let base = '';
let token = '';
let patientId = '';

async function startServer(env: Record<string, string>, isWorkingJobs = true) {
  const app = await createTestApp(env, { jobPollingSeconds: 0.5, isWorkingJobs });
  const physician = await createPhysician(app.database.db);
  const patient = await createPatient(app.database.db);
  await linkPatient(app.database.db, patient.id, physician.id);
  const session = await signIn(app.app, physician.email);
  const url = await app.app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url, token: session.token, patientId: patient.id };
}

beforeAll(async () => {
  const server = await startServer({});
  ({ url: base, token, patientId } = server);
  t = server.app;
}, 60_000);
afterAll(() => t.close());

async function store(app: TestApp, files: Buffer[], patient = patientId, bearer = token) {
  const response = await stow(app.app, bearer, files, `?patient=${patient}&confirm_patient_mismatch=true`);
  expect(response.statusCode, response.body).toBe(200);
}

/**
 * An instance whose stored file is `file`, as if stored before today's bounds: a plain 64 × 64 image
 * of the same UIDs is stored, then its file replaced.
 */
async function storeAsIs(app: TestApp, uids: HostileUids, file: Buffer, patient = patientId, bearer = token) {
  await store(app, [elementBomb(uids, 0)], patient, bearer);
  const [row] = await app.database.db
    .select({ key: dicomInstances.storageKey })
    .from(dicomInstances)
    .where(eq(dicomInstances.sopInstanceUid, uids.sop));
  await app.app.ctx.storage.putBuffer(row!.key, file);
}

const instanceUrl = (uids: HostileUids) =>
  `/dicomweb/studies/${uids.study}/series/${uids.series}/instances/${uids.sop}`;

function get(url: string, accept: string, bearer = token, at = base) {
  return fetch(`${at}${url}`, { headers: { authorization: `Bearer ${bearer}`, accept } });
}

/**
 * Asks /api/health every 20 ms from a thread of its own (this thread is the server's as well, so a
 * poll from here could only run when the server is free), for as long as `read` runs; returns what
 * `read` gave and the slowest health answer, in milliseconds.
 */
async function withHealthWatch<T>(read: () => Promise<T>): Promise<{ result: T; slowestHealth: number }> {
  const poller = new Worker(
    `const { parentPort, workerData } = require('node:worker_threads');
    let slowest = 0;
    let isPolling = true;
    parentPort.once('message', () => { isPolling = false; });
    (async () => {
      while (isPolling) {
        const started = performance.now();
        await (await fetch(workerData + '/api/health')).arrayBuffer();
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      parentPort.postMessage(slowest);
    })();`,
    { eval: true, workerData: base },
  );
  try {
    // The first answer shows the poller is running before the read starts.
    await new Promise((resolve) => setTimeout(resolve, 200));
    return { result: await read(), slowestHealth: await stopPolling(poller) };
  } finally {
    await poller.terminate();
  }
}

function stopPolling(poller: Worker): Promise<number> {
  const slowest = new Promise<number>((resolve) => poller.once('message', resolve));
  poller.postMessage('stop');
  return slowest;
}

describe('hostile DICOM files', () => {
  it('renders a deflate bomb on a decode thread: 413, while /api/health keeps answering', async () => {
    // About 300 KB that inflate to 300 MB: a 12247 × 12247 frame of zeros.
    const uids = hostileUids();
    const bomb = await deflateBomb(uids, 300 * 1024 ** 2);
    expect(bomb.length).toBeLessThan(400_000);
    await store(t, [bomb]);
    const { result, slowestHealth } = await withHealthWatch(async () => {
      const response = await get(`${instanceUrl(uids)}/rendered`, 'image/jpeg');
      return { status: response.status, body: await response.text() };
    });
    expect(result.status).toBe(413);
    expect(JSON.parse(result.body)).toEqual({ error: expect.stringContaining('too large') });
    expect(slowestHealth).toBeLessThan(HELD_MS);
  }, 120_000);

  it('refuses a 2 KB JPEG-LS frame declaring 12000 × 12000 pixels at once, without decoding it', async () => {
    const uids = hostileUids();
    const bomb = await pixelBomb(uids);
    expect(bomb.length).toBeLessThan(8192);
    await store(t, [bomb]);
    const started = performance.now();
    // Uncompressed, as the penetration test asked: 288 MB to decode.
    const frames = await get(`${instanceUrl(uids)}/frames/1`, OCTET_STREAM);
    const body = await frames.arrayBuffer();
    expect(frames.status).toBe(413);
    expect(body.byteLength).toBeLessThan(1000);
    const rendered = await get(`${instanceUrl(uids)}/rendered`, 'image/png');
    expect(rendered.status).toBe(413);
    expect(performance.now() - started).toBeLessThan(1000);
    // As stored, the 2 KB codestream is what the client asked for: nothing is decoded.
    const stored = await get(`${instanceUrl(uids)}/frames/1`, `${OCTET_STREAM}; transfer-syntax=*`);
    expect(stored.status).toBe(200);
    expect((await stored.arrayBuffer()).byteLength).toBeLessThan(8192);
  }, 120_000);

  it('refuses a file of a million private elements at once, without holding /api/health', async () => {
    const uids = hostileUids();
    // Stored as is: ingest may refuse its metadata, while an older archive holds such files.
    await storeAsIs(t, uids, elementBomb(uids, 1_000_000));
    const { result, slowestHealth } = await withHealthWatch(async () => {
      const response = await get(`${instanceUrl(uids)}/rendered`, 'image/png');
      return response.status;
    });
    // Refused by its count of elements, before dcmjs spends seconds on them.
    expect(result).toBe(413);
    expect(slowestHealth).toBeLessThan(HELD_MS);
  }, 180_000);

  it("serves frame N of a 400-frame RLE instance as that frame's fragment, reading only its bytes", async () => {
    // No preview job here: only the requests read the stored file.
    const quiet = await startServer({}, false);
    const uids = hostileUids();
    const image = { rows: 64, columns: 64, frames: 400 };
    const file = await multiFrameRle(uids, image);
    const fragments = fragmentsOf(file);
    expect(fragments).toHaveLength(400);
    await store(quiet.app, [file], quiet.patientId, quiet.token);
    // The storage reads of every instance that may answer (test-app.ts's proxy mode has two).
    const reads = quiet.app.instances.map((instance) => vi.spyOn(instance.ctx.storage, 'read'));
    const readBytesSpies = quiet.app.instances.map((instance) => vi.spyOn(instance.ctx.storage, 'readBytes'));
    const read = { calls: () => reads.flatMap((spy) => spy.mock.calls) };
    const readBytes = { calls: () => readBytesSpies.flatMap((spy) => spy.mock.calls) };
    try {
      const response = await quiet.app.app.inject({
        method: 'GET',
        url: `${instanceUrl(uids)}/frames/300`,
        headers: {
          authorization: `Bearer ${quiet.token}`,
          accept: `multipart/related; type="image/dicom-rle"; transfer-syntax=${RLE}`,
        },
      });
      expect(response.statusCode).toBe(200);
      expect(response.rawPayload.toString('latin1')).toContain(`transfer-syntax=${RLE}`);
      expect(response.rawPayload.includes(fragments[299]!)).toBe(true);
      expect(response.rawPayload.length).toBeLessThan(fragments[299]!.length + 1000);
      // One range read of the frame's item, and the whole file never opened.
      expect(read.calls()).toEqual([]);
      expect(readBytes.calls()).toHaveLength(1);
      const [, range] = readBytes.calls()[0]!;
      expect(range.end - range.start + 1).toBe(fragments[299]!.length + 8);

      // Asked for uncompressed, only that frame is decoded: its samples exactly.
      const decoded = await quiet.app.app.inject({
        method: 'GET',
        url: `${instanceUrl(uids)}/frames/300`,
        headers: { authorization: `Bearer ${quiet.token}`, accept: OCTET_STREAM },
      });
      expect(decoded.statusCode).toBe(200);
      const frameBytes = image.rows * image.columns * 2;
      const expected = multiFrameSamples(image).subarray(299 * frameBytes, 300 * frameBytes);
      expect(decoded.rawPayload.includes(expected)).toBe(true);
      expect(read.calls()).toEqual([]);

      // A minute of frame reads by one person is one audit row (one per server instance that answered).
      for (const frame of [1, 2]) {
        const next = await quiet.app.app.inject({
          method: 'GET',
          url: `${instanceUrl(uids)}/frames/${frame}`,
          headers: { authorization: `Bearer ${quiet.token}`, accept: OCTET_STREAM },
        });
        expect(next.statusCode).toBe(200);
      }
      const audited = await quiet.app.database.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, 'download'));
      expect(audited.length).toBeGreaterThanOrEqual(1);
      expect(audited.length).toBeLessThanOrEqual(quiet.app.instances.length);
    } finally {
      [...reads, ...readBytesSpies].forEach((spy) => spy.mockRestore());
      await quiet.app.close();
    }
  }, 120_000);

  it('answers 503 with Retry-After when every decode thread is busy and the queue is full', async () => {
    // The pixel bound raised, so that the bomb is not refused by the size the archive recorded at
    // ingest but read on the thread, as a file of an older archive's bounds would be.
    const busy = await startServer({
      DICOM_DECODE_THREADS: '1',
      DICOM_DECODE_QUEUE: '1',
      MAX_RENDER_MEGAPIXELS: '1000',
    });
    try {
      // A deflate bomb keeps the one thread inflating for a second or more at each read.
      const uids = hostileUids();
      await store(busy.app, [await deflateBomb(uids, 300 * 1024 ** 2)], busy.patientId, busy.token);
      const rendered = () => get(`${instanceUrl(uids)}/rendered`, 'image/png', busy.token, busy.url);
      // Once the thread has started, one read runs, one waits and the others are refused at once.
      expect([200, 413]).toContain((await rendered()).status);
      const responses = await Promise.all(Array.from({ length: 6 }, rendered));
      const statuses = responses.map((response) => response.status);
      // Those that ran were drawn or found over the thread's bounds; the rest waited for nothing.
      expect(statuses).toContain(503);
      expect(statuses.filter((status) => status !== 503).every((status) => [200, 413].includes(status))).toBe(
        true,
      );
      const refused = responses.find((response) => response.status === 503)!;
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await busy.app.close();
    }
  }, 120_000);
});
