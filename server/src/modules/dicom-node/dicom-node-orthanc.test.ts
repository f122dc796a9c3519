import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, inArray } from 'drizzle-orm';
import { auditLog } from '../../db/schema/audit.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imagePageSchema, incomingListSchema, notificationListSchema } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { stow } from '../../../test/stow.js';
import { linkPatient } from '../patients/patients.repository.js';
import { ctPhantom, writeCtPhantom } from '../../../test/ct-phantom.js';
import { sampleCopy } from '../../../test/dicom-files.js';
import { freePort } from '../../../test/free-port.js';
import { startOrthanc, type OrthancServer } from '../../../test/orthanc.js';
import { dicomInstances } from '../../db/schema/studies.js';
import { addDicomNode } from './node-registry.service.js';

/*
 * Orthanc, the reference archive, as a DICOM peer of our node: it sends studies to us by C-STORE,
 * also when dcmtk's movescu asks it to (C-MOVE), and takes the studies our node sends it.
 */

const run = promisify(execFile);
/** The AE title dcmtk's findscu and movescu call Orthanc with (Orthanc knows it as a modality). */
const QUERIER = 'QUERIER';

let t: TestApp;
let orthanc: OrthancServer | undefined;
let work: string;
let token: string;
let patientUid: string;

beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp(
    { DICOM_PORT: String(port), DICOM_AE_TITLE: 'RADARCHIVE' },
    { jobPollingSeconds: 0.5 },
  );
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-dimse-orthanc-'));
  const physician = await createPhysician(t.database.db);
  const patient = await createPatient(t.database.db);
  await linkPatient(t.database.db, patient.id, physician.id);
  patientUid = patient.id;
  token = (await signIn(t.app, physician.email)).token;
  orthanc = await startOrthanc(
    {},
    {
      aeTitle: 'ORTHANC_PEER',
      modalities: {
        radarchive: { aeTitle: 'RADARCHIVE', host: '127.0.0.1', port },
        querier: { aeTitle: QUERIER, host: '127.0.0.1', port: await freePort() },
      },
    },
  );
  await addDicomNode(t.database.db, {
    physician: physician.email,
    'ae-title': 'ORTHANC_PEER',
    host: '127.0.0.1',
    port: orthanc.dicomPort,
  });
});
afterAll(async () => {
  // Orthanc is a process of its own: it must not outlive a failed test.
  await orthanc?.stop();
  await t?.close();
  await fs.rm(work, { recursive: true, force: true });
});

async function orthancPost(route: string, body: string | Uint8Array, type = 'application/json') {
  const response = await fetch(`${orthanc!.base}${route}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  const text = await response.text();
  expect(response.status, `${route}: ${text}\n${orthanc!.recentLog()}`).toBe(200);
  return JSON.parse(text) as unknown;
}

function datasetOf(file: Buffer): Buffer {
  return file.subarray(144 + file.readUInt32LE(140));
}

describe('Orthanc and the DICOM node', () => {
  it('takes a study Orthanc sends by C-STORE into the Incoming list, compressed files as they were', async () => {
    const phantom = ctPhantom({ slices: 3, rows: 64, columns: 64, pixelSpacing: 4 });
    const files: Buffer[] = await Promise.all(
      (await writeCtPhantom(work, phantom)).map((file) => fs.readFile(file)),
    );
    const compressed = await sampleCopy('JPEG2000.dcm', { studyUid: phantom.studyUid });
    files.push(compressed);
    const sops: string[] = [];
    // Orthanc tells studies apart by patient too: the sample's own patient makes a study of its own there.
    const orthancStudies = new Set<string>();
    for (const file of files) {
      const stored = (await orthancPost('/instances', new Uint8Array(file), 'application/dicom')) as {
        ID: string;
        ParentStudy: string;
      };
      orthancStudies.add(stored.ParentStudy);
      const tags = (await (
        await fetch(`${orthanc!.base}/instances/${stored.ID}/simplified-tags`)
      ).json()) as {
        SOPInstanceUID: string;
      };
      sops.push(tags.SOPInstanceUID);
    }

    await orthancPost(
      '/modalities/radarchive/store',
      JSON.stringify({ Resources: [...orthancStudies], Synchronous: true }),
    );

    const incoming = await t.app.inject({ method: 'GET', url: '/api/user/incoming', headers: bearer(token) });
    const studies = incomingListSchema.parse(incoming.json()).studies;
    expect(studies.map((study) => [study.study.study_instance_uid, study.source])).toEqual([
      [phantom.studyUid, 'DICOM ORTHANC_PEER'],
    ]);
    const stored = await t.database.db
      .select({
        sop: dicomInstances.sopInstanceUid,
        key: dicomInstances.storageKey,
        syntax: dicomInstances.transferSyntaxUid,
      })
      .from(dicomInstances)
      .where(inArray(dicomInstances.sopInstanceUid, sops));
    expect(stored).toHaveLength(files.length);
    for (const [index, file] of files.entries()) {
      const row = stored.find((instance) => instance.sop === sops[index])!;
      const kept = await fs.readFile(path.join(t.config.storageDir, row.key));
      expect(datasetOf(kept).equals(datasetOf(file)), `instance ${index}`).toBe(true);
    }
    // JPEG 2000 was accepted as proposed, not decompressed on the way.
    expect(stored.find((row) => row.sop === sops.at(-1))!.syntax).toBe('1.2.840.10008.1.2.4.91');
  });

  it('files a study Orthanc moves to us when movescu asks it, after findscu found it there', async () => {
    const phantom = ctPhantom({ slices: 3, rows: 64, columns: 64, pixelSpacing: 4, patientName: 'Moved^Mo' });
    const files = await writeCtPhantom(path.join(work, 'moved'), phantom);
    for (const file of files) {
      await orthancPost('/instances', new Uint8Array(await fs.readFile(file)), 'application/dicom');
    }
    const peer = ['-aet', QUERIER, '-aec', 'ORTHANC_PEER', '127.0.0.1', String(orthanc!.dicomPort)];

    // C-FIND at study level: Orthanc answers with the study and its number of instances.
    const found = await run('findscu', [
      '-S',
      '-k',
      'QueryRetrieveLevel=STUDY',
      '-k',
      `StudyInstanceUID=${phantom.studyUid}`,
      '-k',
      'PatientName',
      '-k',
      'NumberOfStudyRelatedInstances',
      ...peer,
    ]);
    const answer = `${found.stdout}${found.stderr}`;
    expect(answer).toContain(phantom.studyUid);
    expect(answer).toMatch(/\[3 ?\]\s+#.*NumberOfStudyRelatedInstances/);

    // C-MOVE to our node: Orthanc sends the study to RADARCHIVE as ORTHANC_PEER, a registered node.
    const moved = await run('movescu', [
      '-S',
      '-k',
      'QueryRetrieveLevel=STUDY',
      '-k',
      `StudyInstanceUID=${phantom.studyUid}`,
      '-aem',
      'RADARCHIVE',
      ...peer,
    ]);
    expect(`${moved.stdout}${moved.stderr}`).not.toMatch(/Failed|Error/i);

    const incoming = await t.app.inject({ method: 'GET', url: '/api/user/incoming', headers: bearer(token) });
    const study = incomingListSchema
      .parse(incoming.json())
      .studies.find((entry) => entry.study.study_instance_uid === phantom.studyUid);
    expect(study).toMatchObject({ source: 'DICOM ORTHANC_PEER', study: { instance_count: 3 } });
  });

  it("sends a patient's study to Orthanc by C-STORE in the background and tells the physician", async () => {
    const phantom = ctPhantom({ slices: 4, rows: 64, columns: 64, pixelSpacing: 4 });
    const files = await Promise.all(
      (await writeCtPhantom(path.join(work, 'sent'), phantom)).map((file) => fs.readFile(file)),
    );
    const filed = await stow(t.app, token, files, `?patient=${patientUid}&confirm_patient_mismatch=true`);
    expect(filed.statusCode, filed.body).toBe(200);
    const items = await t.app.inject({
      method: 'GET',
      url: `/api/user/${patientUid}/images`,
      headers: bearer(token),
    });
    expect(items.statusCode, items.body).toBe(200);
    const item = imagePageSchema.parse(items.json()).images[0]!;

    const nodes = await t.app.inject({ method: 'GET', url: '/api/user/dicom-nodes', headers: bearer(token) });
    expect(nodes.json()).toEqual({
      nodes: [{ ae_title: 'ORTHANC_PEER', host: '127.0.0.1', port: orthanc!.dicomPort, can_receive: true }],
    });

    const send = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: `/api/image/${item.uid}/send`,
        headers: bearer(token),
        payload: body,
      });
    expect((await send({ ae_title: 'NOT_MINE' })).statusCode).toBe(404);
    expect((await send({ ae_title: 'BACK\\SLASH' })).statusCode).toBe(400);
    const queued = await send({ ae_title: 'ORTHANC_PEER' });
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json()).toEqual({ job: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    let messages: string[] = [];
    for (let wait = 0; wait < 100 && !messages.some((m) => m.startsWith('Study sent')); wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const list = await t.app.inject({
        method: 'GET',
        url: '/api/notification/polling',
        headers: bearer(token),
      });
      messages =
        list.statusCode === 200 ? notificationListSchema.parse(list.json()).map((n) => n.message) : [];
    }
    expect(messages).toContain('Study sent to ORTHANC_PEER: 4 of 4 instances.');
    const found = (await orthancPost(
      '/tools/find',
      JSON.stringify({ Level: 'Instance', Query: { StudyInstanceUID: phantom.studyUid } }),
    )) as string[];
    expect(found).toHaveLength(4);
    // dcmtk's findscu, asking Orthanc over DIMSE, finds the series our node sent, whole.
    const series = await run('findscu', [
      '-S',
      '-k',
      'QueryRetrieveLevel=SERIES',
      '-k',
      `StudyInstanceUID=${phantom.studyUid}`,
      '-k',
      'SeriesInstanceUID',
      '-k',
      'NumberOfSeriesRelatedInstances',
      '-aet',
      QUERIER,
      '-aec',
      'ORTHANC_PEER',
      '127.0.0.1',
      String(orthanc!.dicomPort),
    ]);
    expect(`${series.stdout}${series.stderr}`).toMatch(/\[4 ?\]\s+#.*NumberOfSeriesRelatedInstances/);
    // The study left the archive at the physician's request: a download of its files, on the patient's record.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const audited = await t.database.db
      .select({ action: auditLog.action, patientId: auditLog.patientId })
      .from(auditLog)
      .where(eq(auditLog.recordId, `studies/${item.uid}`));
    expect(audited).toContainEqual({ action: 'download', patientId: patientUid });
  });
});
