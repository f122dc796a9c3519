import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dicomJsonDatasetSchema, dicomJsonListSchema, firstValue, STUDY_MESSAGES } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
} from '../../../test/factories.js';
import { newUid, sampleCopy } from '../../../test/dicom-files.js';
import { linkPatient } from '../patients/patients.repository.js';
import { stow as stowRequest } from '../../../test/stow.js';
import { NO_PATIENT } from './stow.service.js';
import { and, eq, sql } from 'drizzle-orm';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { auditLog } from '../../db/schema/audit.js';
import { auditRowOf } from '../audit/index.js';
import { fileInstances, isStudyChanged } from '../studies/studies.repository.js';
import { studies } from '../../db/schema/studies.js';
import { archiveItems } from '../../db/schema/archive-items.js';

let t: TestApp;
const people = {} as Record<
  'physician' | 'otherPhysician' | 'patient' | 'radiologist',
  { id: string; token: string }
>;
const JANE = { patientName: 'Doe^Jane', birthDate: '19800402' };

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const accounts = {
    physician: await createPhysician(db),
    otherPhysician: await createPhysician(db),
    patient: await createPatient(db, { firstName: 'Jane', lastName: 'Doe', dob: '1980-04-02' }),
    radiologist: await createRadiologist(db),
  };
  for (const [name, user] of Object.entries(accounts)) {
    people[name as keyof typeof people] = { id: user.id, token: (await signIn(t.app, user.email)).token };
  }
  await linkPatient(db, accounts.patient.id, accounts.physician.id);
});
afterAll(() => t.close());

function stow(token: string, parts: Buffer[], query = `?patient=${people.patient.id}`, type?: string) {
  return stowRequest(t.app, token, parts, query, { type });
}

describe('STOW-RS', () => {
  it('files parts of one new study sent at the same time as one study, losing none', async () => {
    const studyUid = newUid();
    const seriesUid = newUid();
    const batches = await Promise.all(
      [0, 1, 2, 3].map(async (batch) => [
        await sampleCopy('CT_small.dcm', { ...JANE, studyUid, seriesUid, instanceNumber: batch * 2 + 1 }),
        await sampleCopy('CT_small.dcm', { ...JANE, studyUid, seriesUid, instanceNumber: batch * 2 + 2 }),
      ]),
    );
    const answers = await Promise.all(batches.map((parts) => stow(people.physician.token, parts)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);

    const studies = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies?StudyInstanceUID=${studyUid}`,
      headers: bearer(people.physician.token),
    });
    const found = dicomJsonListSchema.parse(studies.json());
    expect(found).toHaveLength(1);
    expect(firstValue(found[0]!, '00201208')).toBe('8');
    expect(firstValue(found[0]!, '00201206')).toBe('1');
  });

  it('draws a study sent in many requests once its requests are over, not once per request', async () => {
    const studyUid = newUid();
    for (let instanceNumber = 1; instanceNumber <= 6; instanceNumber += 1) {
      const part = await sampleCopy('MR_small.dcm', { ...JANE, studyUid, instanceNumber });
      expect((await stow(people.physician.token, [part])).statusCode).toBe(200);
    }
    const { rows } = (await t.database.executeSql(
      `select count(*)::int as drawings,
         (array_agg(extract(epoch from job.start_after - job.created_on)::float
           order by job.created_on))[1] as "firstDelaySeconds",
         max(job.start_after) > now() as "startsAfterTheLastRequest"
       from pgboss.job
       join studies on studies.item_id::text = job.data->>'itemId'
       where job.name = 'study-preview' and studies.study_instance_uid = $1`,
      [studyUid],
    )) as { rows: { drawings: number; firstDelaySeconds: number; startsAfterTheLastRequest: boolean }[] };
    // A DICOMweb client's study is drawn once its batches have had time to arrive, not between them,
    // and a drawing still waits that sees the last one.
    expect(rows[0]!.firstDelaySeconds).toBeGreaterThanOrEqual(4);
    expect(rows[0]!.startsAfterTheLastRequest).toBe(true);
    // One drawing per five-second slot the requests span; never one per request.
    expect(rows[0]!.drawings).toBeGreaterThanOrEqual(1);
    expect(rows[0]!.drawings).toBeLessThanOrEqual(2);
  });

  it('files the instances under the patient, as upload-study does, and answers with what it stored', async () => {
    const studyUid = newUid();
    const files = [
      await sampleCopy('CT_small.dcm', { ...JANE, studyUid }),
      await sampleCopy('MR_small.dcm', { ...JANE, studyUid }),
    ];
    const response = await stow(people.physician.token, files);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('application/dicom+json');
    const answer = dicomJsonDatasetSchema.parse(response.json());
    expect(firstValue(answer, '00081190')).toMatch(new RegExp(`/dicomweb/studies/${studyUid}$`));
    expect(answer['00081199']!.Value).toHaveLength(2);
    expect(answer['00081198']).toBeUndefined();

    const found = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies?StudyInstanceUID=${studyUid}`,
      headers: bearer(people.patient.token),
    });
    const [study] = dicomJsonListSchema.parse(found.json());
    expect(firstValue(study!, '00201208')).toBe('2');

    // The same instances again are already there: stored once, still referenced.
    const again = await stow(people.physician.token, files);
    expect(again.statusCode).toBe(200);
    expect(dicomJsonDatasetSchema.parse(again.json())['00081199']!.Value).toHaveLength(2);
  });

  it('records each addition to a filed study in the audit log, and only one that succeeds', async () => {
    const studyUid = newUid();
    const seriesUid = newUid();
    const part = (instanceNumber: number) =>
      sampleCopy('CT_small.dcm', { ...JANE, studyUid, seriesUid, instanceNumber });
    expect((await stow(people.physician.token, [await part(1)])).statusCode).toBe(200);
    const [study] = await t.database.db.select().from(studies).where(eq(studies.studyInstanceUid, studyUid));
    const updates = () =>
      t.database.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.recordId, study!.itemId), eq(auditLog.action, 'update')));
    expect(await updates()).toEqual([]);

    const again = await part(2);
    expect((await stow(people.physician.token, [again])).statusCode).toBe(200);
    expect(await updates()).toMatchObject([
      { actorId: people.physician.id, patientId: people.patient.id, recordType: 'image' },
    ]);
    // The same instance again is a change that stores nothing, recorded as before.
    expect((await stow(people.physician.token, [again])).statusCode).toBe(200);
    expect(await updates()).toHaveLength(2);
    const [figures] = await t.database.db.select().from(studies).where(eq(studies.itemId, study!.itemId));
    expect(figures).toMatchObject({ instanceCount: 2, seriesCount: 1 });

    // Someone who may not store for the patient changes nothing and records nothing.
    const refused = await stow(people.otherPhysician.token, [await part(3)]);
    expect(refused.statusCode).toBe(404);
    expect(await updates()).toHaveLength(2);
  });

  it('files nothing and records nothing into a study that is no longer the item found', async () => {
    const studyUid = newUid();
    expect(
      (await stow(people.physician.token, [await sampleCopy('CT_small.dcm', { ...JANE, studyUid })]))
        .statusCode,
    ).toBe(200);
    const [study] = await t.database.db.select().from(studies).where(eq(studies.studyInstanceUid, studyUid));
    const found = { namespaceId: people.patient.id, studyInstanceUid: studyUid };
    const audit = auditRowOf({
      actorId: people.physician.id,
      patientId: people.patient.id,
      action: 'update',
      recordType: 'image',
      recordId: 'changed-study-probe',
      ip: null,
    });
    const attempt = fileInstances(t.database.db, { ...found, itemId: crypto.randomUUID() }, [], [], audit);
    await expect(attempt).rejects.toSatisfy(isStudyChanged);
    expect(
      await t.database.db.select().from(auditLog).where(eq(auditLog.recordId, 'changed-study-probe')),
    ).toEqual([]);
    // The item found, as it still is: recorded.
    await fileInstances(t.database.db, { ...found, itemId: study!.itemId }, [], [], audit);
    expect(
      await t.database.db.select().from(auditLog).where(eq(auditLog.recordId, 'changed-study-probe')),
    ).toHaveLength(1);
  });

  it('files instance after instance into a study without leaving index entries behind', async () => {
    const studyUid = newUid();
    const seriesUid = newUid();
    const first = await sampleCopy('CT_small.dcm', { ...JANE, studyUid, seriesUid });
    expect((await stow(people.physician.token, [first])).statusCode).toBe(200);
    const [study] = await t.database.db.select().from(studies).where(eq(studies.studyInstanceUid, studyUid));
    const itemSize = async () =>
      (await t.database.db.select().from(archiveItems).where(eq(archiveItems.id, study!.itemId)))[0]!.size;
    // Every index of archive_items, in bytes: filing raises the item's size each time.
    const indexBytes = async () => {
      const result = await t.database.db.execute(
        sql`select sum(pg_relation_size(indexrelid))::text as bytes from pg_index
          where indrelid = 'archive_items'::regclass`,
      );
      return Number((result as { rows: { bytes: string }[] }).rows[0]!.bytes);
    };
    const sizeBefore = await itemSize();
    const bytesBefore = await indexBytes();
    const found = { namespaceId: people.patient.id, studyInstanceUid: studyUid, itemId: study!.itemId };
    const filings = 600;
    for (let index = 0; index < filings; index += 1) {
      const sop = newUid();
      const stored = await fileInstances(
        t.database.db,
        found,
        [],
        [
          {
            seriesInstanceUid: seriesUid,
            sopInstanceUid: sop,
            sopClassUid: '1.2.840.10008.5.1.4.1.1.2',
            transferSyntaxUid: '1.2.840.10008.1.2.1',
            isImage: true,
            storageKey: `index-entries-probe/${sop}.dcm`,
            size: 1000,
            metadata: {},
          },
        ],
      );
      expect(stored).toEqual(new Set([sop]));
    }
    expect(await itemSize()).toBe(sizeBefore + filings * 1000);
    // An update that changes an indexed column adds an entry to every index, which the embedded
    // database never vacuums away: 600 of them took three pages more. A page of slack: on a
    // PostgreSQL server, an update may leave its page while another transaction still sees the row.
    expect(await indexBytes()).toBeLessThanOrEqual(bytesBefore + 8192);
  });

  it('answers 202 with the failed parts when some are not DICOM, and 409 when none is', async () => {
    const partly = await stow(people.physician.token, [
      await sampleCopy('CT_small.dcm', JANE),
      Buffer.from('not dicom at all'),
    ]);
    expect(partly.statusCode).toBe(202);
    const answer = dicomJsonDatasetSchema.parse(partly.json());
    expect(answer['00081198']!.Value).toEqual([{ '00081197': { vr: 'US', Value: [0xc000] } }]);
    expect(answer['00081199']!.Value).toHaveLength(1);

    const none = await stow(people.physician.token, [Buffer.from('nothing here')]);
    expect(none.statusCode).toBe(409);

    // The filed part went into storage and the refused ones are removed: no working file is left.
    const unpacked = path.join(t.config.storageDir, 'unpacked');
    const workFilesLeft = async () => {
      const dirs = (await fs.readdir(unpacked)).filter((name) => name.startsWith('shared-'));
      expect(dirs.length).toBeGreaterThan(0);
      return (await Promise.all(dirs.map((dir) => fs.readdir(path.join(unpacked, dir))))).flat();
    };
    await expect.poll(workFilesLeft, { timeout: 5_000 }).toEqual([]);
  });

  it('keeps the wrong-patient guard: files naming someone else need confirm_patient_mismatch=true', async () => {
    const other = await sampleCopy('MR_small.dcm', { patientName: 'Smith^John', birthDate: '19650101' });
    const refused = await stow(people.physician.token, [other]);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      msg: STUDY_MESSAGES.patientMismatch,
      found: [expect.objectContaining({ name: 'Smith^John', files: 1 })],
    });
    const confirmed = await stow(
      people.physician.token,
      [other],
      `?patient=${people.patient.id}&confirm_patient_mismatch=true`,
    );
    expect(confirmed.statusCode).toBe(200);
  });

  it('never stores for a patient token, another physician, no patient named, or another media type', async () => {
    const file = await sampleCopy('CT_small.dcm', JANE);
    expect((await stow(people.patient.token, [file])).statusCode).toBe(403);
    expect((await stow(people.otherPhysician.token, [file])).statusCode).toBe(404);
    // Only a physician may leave the patient out (the study then waits in their Incoming list).
    const unnamed = await stow(people.radiologist.token, [file], '');
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json()).toEqual({ errors: [{ msg: NO_PATIENT, path: 'patient' }] });
    expect(
      (await stow(people.physician.token, [file], `?patient=${people.patient.id}`, 'application/dicom+xml'))
        .statusCode,
    ).toBe(415);
    const json = await t.app.inject({
      method: 'POST',
      url: `/dicomweb/studies?patient=${people.patient.id}`,
      headers: bearer(people.physician.token),
      payload: { not: 'multipart' },
    });
    expect(json.statusCode).toBe(415);
  });
});
