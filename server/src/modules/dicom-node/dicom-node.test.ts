import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dicomNodeListSchema, imagePageSchema, incomingListSchema, notificationListSchema } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { stow } from '../../../test/stow.js';
import { linkPatient } from '../patients/patients.repository.js';
import { ctPhantom, writeCtPhantom } from '../../../test/ct-phantom.js';
import { freePort } from '../../../test/free-port.js';
import { dicomInstances } from '../../db/schema/studies.js';
import { addDicomNode } from './node-registry.service.js';
import dimse from './dimse-library.js';

const run = promisify(execFile);

let t: TestApp;
let port: number;
let work: string;
const people = {} as Record<'first' | 'second' | 'unverified', { id: string; email: string; token: string }>;

beforeAll(async () => {
  port = await freePort();
  t = await createTestApp(
    { DICOM_PORT: String(port), DICOM_AE_TITLE: 'RADARCHIVE' },
    { jobPollingSeconds: 0.5 },
  );
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-dimse-'));
  const db = t.database.db;
  for (const name of ['first', 'second'] as const) {
    const user = await createPhysician(db);
    people[name] = { id: user.id, email: user.email, token: (await signIn(t.app, user.email)).token };
  }
  await addDicomNode(db, { physician: people.first.email, 'ae-title': 'MODALITY_A', host: '127.0.0.1' });
  await addDicomNode(db, { physician: people.second.email, 'ae-title': 'MODALITY_B' });
  // A node to send to where nothing listens.
  await addDicomNode(db, {
    physician: people.first.email,
    'ae-title': 'NOBODY_HOME',
    host: '127.0.0.1',
    port: await freePort(),
  });
  // Registered from an address no test connects from.
  await addDicomNode(db, { physician: people.first.email, 'ae-title': 'ELSEWHERE', host: '192.0.2.7' });
});
afterAll(async () => {
  await t?.close();
  await fs.rm(work, { recursive: true, force: true });
});

async function incomingOf(token: string) {
  const response = await t.app.inject({ method: 'GET', url: '/api/user/incoming', headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return incomingListSchema.parse(response.json()).studies;
}

/** dcmtk's exit status and output; a refusal is an outcome here, not an exception. */
async function dcmtk(tool: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(tool, args, { timeout: 30_000 });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, output: failed.stdout + failed.stderr };
  }
}

const echo = (callingAe: string, calledAe = 'RADARCHIVE') =>
  dcmtk('echoscu', ['-aet', callingAe, '-aec', calledAe, '127.0.0.1', String(port)]);

async function series(name: string, slices: number) {
  const phantom = ctPhantom({ slices, rows: 64, columns: 64, pixelSpacing: 4 });
  const files = await writeCtPhantom(path.join(work, name), phantom);
  return { phantom, files };
}

/** A Part 10 file's dataset: what follows the File Meta Information, whose length (0002,0000) gives. */
function datasetOf(file: Buffer): Buffer {
  expect(file.subarray(128, 132).toString('latin1')).toBe('DICM');
  return file.subarray(144 + file.readUInt32LE(140));
}

function storedInstances(sopUids: string[]) {
  return t.database.db
    .select({ sop: dicomInstances.sopInstanceUid, key: dicomInstances.storageKey })
    .from(dicomInstances)
    .where(inArray(dicomInstances.sopInstanceUid, sopUids));
}

async function sopUidOf(file: string): Promise<string> {
  const { stdout } = await run('dcmdump', ['+P', '0008,0018', file]);
  return /\[([0-9.]+)\]/.exec(stdout)![1]!;
}

/** Work files of C-STORE datasets anywhere under the data folder (named <random>-<n>.dcm). */
async function workFilesLeft(): Promise<string[]> {
  const entries = await fs.readdir(t.dataDir, { recursive: true });
  return entries.map(String).filter((entry) => /[0-9a-f]{16}-\d+\.dcm$/.test(entry));
}

describe('the DICOM node', () => {
  it('answers C-ECHO from a registered AE title only, addressed to its own AE title', async () => {
    expect((await echo('MODALITY_A')).code).toBe(0);
    expect((await echo('MODALITY_B')).code).toBe(0);
    const stranger = await echo('STRANGER');
    expect(stranger.code).not.toBe(0);
    expect(stranger.output).toMatch(/Calling AE Title Not Recognized/i);
    const wrongCalled = await echo('MODALITY_A', 'SOMEONE');
    expect(wrongCalled.code).not.toBe(0);
    expect(wrongCalled.output).toMatch(/Called AE Title Not Recognized/i);
    // Registered, but to be called from another address.
    const elsewhere = await echo('ELSEWHERE');
    expect(elsewhere.code).not.toBe(0);
    expect(elsewhere.output).toMatch(/Calling AE Title Not Recognized/i);
  });

  it('serves 4 associations at once and tells a fifth caller to come back later', async () => {
    // Four callers that keep their association open for a while after their C-ECHO.
    const lingering = Array.from({ length: 4 }, () => {
      const client = new dimse.Client();
      const accepted = new Promise<void>((resolve) => client.on('associationAccepted', () => resolve()));
      const closed = new Promise<void>((resolve) => {
        client.on('closed', () => resolve());
        client.on('networkError', () => resolve());
      });
      client.addRequest(new dimse.requests.CEchoRequest());
      client.send('127.0.0.1', port, 'MODALITY_A', 'RADARCHIVE', { associationLingerTimeout: 3000 });
      return { accepted, closed };
    });
    await Promise.all(lingering.map((caller) => caller.accepted));
    const fifth = await echo('MODALITY_B');
    expect(fifth.code).not.toBe(0);
    expect(fifth.output).toMatch(/Local Limit Exceeded/i);
    await Promise.all(lingering.map((caller) => caller.closed));
    expect((await echo('MODALITY_B')).code).toBe(0);
  });

  it("files a series sent by dcmsend into its physician's Incoming list, byte for byte", async () => {
    const { phantom, files } = await series('first', 5);
    const sent = await dcmtk('dcmsend', [
      '-aet',
      'MODALITY_A',
      '-aec',
      'RADARCHIVE',
      '127.0.0.1',
      String(port),
      ...files,
    ]);
    expect(sent.code, sent.output).toBe(0);

    const studies = await incomingOf(people.first.token);
    expect(studies).toHaveLength(1);
    expect(studies[0]!.source).toBe('DICOM MODALITY_A');
    expect(studies[0]!.study.study_instance_uid).toBe(phantom.studyUid);
    expect(await incomingOf(people.second.token)).toHaveLength(0);

    const sops = await Promise.all(files.map(sopUidOf));
    const stored = await storedInstances(sops);
    expect(stored).toHaveLength(files.length);
    for (const [index, file] of files.entries()) {
      const row = stored.find((instance) => instance.sop === sops[index])!;
      const kept = await fs.readFile(path.join(t.config.storageDir, row.key));
      expect(datasetOf(kept).equals(datasetOf(await fs.readFile(file)))).toBe(true);
    }
  });

  it("files what a second physician's node sends into that physician's list only", async () => {
    const { phantom, files } = await series('second', 3);
    const sent = await dcmtk('dcmsend', [
      '-aet',
      'MODALITY_B',
      '-aec',
      'RADARCHIVE',
      '127.0.0.1',
      String(port),
      ...files,
    ]);
    expect(sent.code, sent.output).toBe(0);
    const studies = await incomingOf(people.second.token);
    expect(studies.map((study) => [study.study.study_instance_uid, study.source])).toEqual([
      [phantom.studyUid, 'DICOM MODALITY_B'],
    ]);
    expect(
      (await incomingOf(people.first.token)).map((study) => study.study.study_instance_uid),
    ).not.toContain(phantom.studyUid);
  });

  it('refuses an unreadable instance alone and files the others', async () => {
    const { phantom, files } = await series('bad-one', 3);
    // A Study Instance UID that is no UID: dcmsend sends it, the archive cannot file it.
    await run('dcmodify', ['-nb', '-m', '(0020,000d)=1.2.not-a-uid', files[1]!]);
    const sent = await dcmtk('dcmsend', [
      '-v',
      '-aet',
      'MODALITY_B',
      '-aec',
      'RADARCHIVE',
      '127.0.0.1',
      String(port),
      ...files,
    ]);
    expect(sent.output).toMatch(/C-STORE Response \(Error: CannotUnderstand\)/);
    const sops = await Promise.all(files.map(sopUidOf));
    const stored = await storedInstances(sops);
    expect(stored.map((row) => row.sop).sort()).toEqual([sops[0], sops[2]].sort());
    const studies = await incomingOf(people.second.token);
    expect(studies.map((study) => study.study.study_instance_uid)).toContain(phantom.studyUid);
  });

  it('files nothing of an association aborted mid-transfer, and leaves no work files', async () => {
    const { phantom, files } = await series('aborted', 6);
    const sops = await Promise.all(files.map(sopUidOf));
    const client = new dimse.Client();
    let answered = 0;
    const ended = new Promise<void>((resolve) => {
      client.on('closed', () => resolve());
      client.on('networkError', () => resolve());
    });
    for (const file of files) {
      const request = new dimse.requests.CStoreRequest(file);
      request.on('response', () => {
        answered += 1;
        if (answered === 3) {
          client.abort();
        }
      });
      client.addRequest(request);
    }
    client.send('127.0.0.1', port, 'MODALITY_A', 'RADARCHIVE');
    await ended;
    expect(answered).toBeGreaterThanOrEqual(3);
    expect(answered).toBeLessThan(files.length);

    // Whatever the node still had under way settles within a moment.
    for (let wait = 0; wait < 50 && (await workFilesLeft()).length > 0; wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await workFilesLeft()).toEqual([]);
    expect(await storedInstances(sops)).toEqual([]);
    const studies = await incomingOf(people.first.token);
    expect(studies.map((study) => study.study.study_instance_uid)).not.toContain(phantom.studyUid);
  });

  it('lists and sends for physicians only: the anonymous caller gets 401, a patient 403, and a physician sees only their own nodes', async () => {
    const patient = await createPatient(t.database.db);
    const patientToken = (await signIn(t.app, patient.email)).token;
    const list = (headers: Record<string, string>) =>
      t.app.inject({ method: 'GET', url: '/api/user/dicom-nodes', headers });
    const send = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/image/${crypto.randomUUID()}/send`,
        headers,
        payload: { ae_title: 'MODALITY_A' },
      });
    expect((await list({})).statusCode).toBe(401);
    expect((await send({})).statusCode).toBe(401);
    expect((await list(bearer(patientToken))).statusCode).toBe(403);
    expect((await send(bearer(patientToken))).statusCode).toBe(403);
    const own = await list(bearer(people.first.token));
    expect(own.statusCode).toBe(200);
    const titles = dicomNodeListSchema.parse(own.json()).nodes.map((node) => node.ae_title);
    expect(titles).toContain('MODALITY_A');
    expect(titles).not.toContain('MODALITY_B');
  });

  it('sends only to a node of the caller with a host and port, and tells when sending failed', async () => {
    const patient = await createPatient(t.database.db);
    await linkPatient(t.database.db, patient.id, people.first.id);
    const { files } = await series('to-send', 2);
    const query = `?patient=${patient.id}&confirm_patient_mismatch=true`;
    const filed = await stow(
      t.app,
      people.first.token,
      await Promise.all(files.map((f) => fs.readFile(f))),
      query,
    );
    expect(filed.statusCode, filed.body).toBe(200);
    const items = await t.app.inject({
      method: 'GET',
      url: `/api/user/${patient.id}/images`,
      headers: bearer(people.first.token),
    });
    const study = imagePageSchema.parse(items.json()).images[0];
    const send = (token: string, aeTitle: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/image/${study!.uid}/send`,
        headers: bearer(token),
        payload: { ae_title: aeTitle },
      });
    // Another physician's node, and a node of the caller's that only sends.
    expect((await send(people.first.token, 'MODALITY_B')).statusCode).toBe(404);
    const onlySends = await send(people.first.token, 'MODALITY_A');
    expect(onlySends.statusCode).toBe(400);
    expect(onlySends.json()).toEqual({
      errors: [{ path: 'ae_title', msg: expect.stringMatching(/no host and port/) }],
    });
    // Someone who may not read the study.
    expect((await send(people.second.token, 'MODALITY_B')).statusCode).toBe(404);

    const queued = await send(people.first.token, 'NOBODY_HOME');
    expect(queued.statusCode, queued.body).toBe(202);
    let messages: string[] = [];
    for (let wait = 0; wait < 100 && !messages.some((m) => m.includes('NOBODY_HOME')); wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const list = await t.app.inject({
        method: 'GET',
        url: '/api/notification/polling',
        headers: bearer(people.first.token),
      });
      messages =
        list.statusCode === 200 ? notificationListSchema.parse(list.json()).map((n) => n.message) : [];
    }
    expect(messages.find((m) => m.includes('NOBODY_HOME'))).toMatch(/^Study not sent to NOBODY_HOME: /);
  });
});
