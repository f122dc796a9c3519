/**
 * The floor under our STOW-RS: what this machine costs to store one instance through the server's
 * own parts, with none of the product around them. The request is read by the server's multipart
 * reader, each part handed to the server's part readers (parsed and written on their threads), and
 * one row per instance inserted through the embedded database on its thread. No Fastify, sign-in,
 * access rule, wrong-patient guard, quota, audit, change feed, working folder or request log.
 *
 * Set beside our server and Orthanc in the STOW-RS rows (bench/dicom.bench.ts), it tells how
 * much of our time per instance is the design (threads, the embedded database, Node) and how much
 * is the layers the product adds. It answers every request 200 with the instances' UIDs; it is
 * never a server for anything else.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PgliteThread } from '../server/src/db/pglite-thread.js';
import { readMultipartRelated } from '../server/src/lib/multipart-related/multipart-related.js';
import { dicomPartReaders, partitionReads } from '../server/src/modules/studies/index.js';

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-stow-floor-'));
const storeDir = path.join(dir, 'store');
await fs.mkdir(storeDir);
const db = await PgliteThread.open({ dataDir: path.join(dir, 'database') });
await db.exec(`create table instances (
  sop_instance_uid text primary key, study_instance_uid text not null, series_instance_uid text not null,
  storage_key text not null, summary jsonb not null)`);
const limits = { maxParts: 10_000, maxPartBytes: 512 * 1024 ** 2, maxTotalBytes: 8 * 1024 ** 3 };
let nextFile = 0;

async function store(request: http.IncomingMessage): Promise<string[]> {
  const reads = [];
  for await (const part of readMultipartRelated(request, request.headers['content-type'], limits)) {
    nextFile += 1;
    const started = await dicomPartReaders.start(
      `part ${nextFile}`,
      path.join(storeDir, `${nextFile}.dcm`),
      part,
    );
    reads.push(started.read);
  }
  const { files } = partitionReads(await Promise.all(reads));
  const rows = files.map(({ path: key, instance }) => ({
    sop_instance_uid: instance.sopInstanceUid,
    study_instance_uid: instance.studyInstanceUid,
    series_instance_uid: instance.seriesInstanceUid,
    storage_key: key,
    summary: instance,
  }));
  await db.query(
    `insert into instances select * from jsonb_populate_recordset(null::instances, $1::jsonb)
     on conflict do nothing`,
    [JSON.stringify(rows)],
  );
  return files.map(({ instance }) => instance.sopInstanceUid);
}

const server = http.createServer((request, response) => {
  if (request.method !== 'POST') {
    response.end('ready');
    return;
  }
  store(request).then(
    (sops) => {
      response.writeHead(200, { 'content-type': 'application/dicom+json' });
      response.end(
        JSON.stringify({
          '00081199': { vr: 'SQ', Value: sops.map((sop) => ({ '00081155': { vr: 'UI', Value: [sop] } })) },
        }),
      );
    },
    (err: unknown) => {
      response.writeHead(500).end(String(err));
    },
  );
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.once('SIGTERM', () => {
  server.close();
  void db
    .close()
    .finally(() => fs.rm(dir, { recursive: true, force: true }))
    .finally(() => process.exit(0));
});
