import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignIncomingResponseSchema,
  dicomJsonDatasetSchema,
  dicomJsonListSchema,
  firstValue,
  imagePageSchema,
  incomingListSchema,
  patientMismatchSchema,
  STUDY_MESSAGES,
} from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
} from '../../../test/factories.js';
import { newUid, sampleCopy } from '../../../test/dicom-files.js';
import { stow } from '../../../test/stow.js';
import { incomingInstances, incomingStudies } from '../../db/schema/incoming.js';
import { linkPatient } from '../patients/patients.repository.js';
import { refileLegacyIncoming } from './incoming.service.js';

let t: TestApp;
const people = {} as Record<
  'physician' | 'otherPhysician' | 'patient' | 'otherPatient',
  { id: string; token: string }
>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const accounts = {
    physician: await createPhysician(db),
    otherPhysician: await createPhysician(db),
    patient: await createPatient(db, { firstName: 'Jane', lastName: 'Doe', dob: '1980-04-02' }),
    otherPatient: await createPatient(db),
  };
  for (const [name, user] of Object.entries(accounts)) {
    people[name as keyof typeof people] = { id: user.id, token: (await signIn(t.app, user.email)).token };
  }
  await linkPatient(db, accounts.patient.id, accounts.physician.id);
  await linkPatient(db, accounts.otherPatient.id, accounts.otherPhysician.id);
});
afterAll(() => t.close());

function incomingOf(token: string) {
  return t.app.inject({ method: 'GET', url: '/api/user/incoming', headers: bearer(token) });
}

function assign(token: string, uid: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: `/api/user/incoming/${uid}/assign`,
    headers: bearer(token),
    payload: body,
  });
}

describe('the Incoming list (docs/api.md §12.3)', () => {
  it('keeps a study stored without a patient for its receiver alone, then files it under a patient with the guard', async () => {
    const studyUid = newUid();
    const files = [
      await sampleCopy('CT_small.dcm', { studyUid, patientName: 'Smith^John', birthDate: '19650101' }),
      await sampleCopy('MR_small.dcm', { studyUid, patientName: 'Smith^John', birthDate: '19650101' }),
    ];
    const stored = await stow(t.app, people.physician.token, files, '', { userAgent: 'Hospital PACS' });
    expect(stored.statusCode).toBe(200);
    // Sent twice, kept once.
    expect((await stow(t.app, people.physician.token, files, '')).statusCode).toBe(200);

    const list = incomingListSchema.parse((await incomingOf(people.physician.token)).json());
    expect(list.studies).toEqual([
      expect.objectContaining({
        source: 'Hospital PACS',
        study: expect.objectContaining({
          study_instance_uid: studyUid,
          modalities: ['CT', 'MR'],
          series_count: 2,
          instance_count: 2,
          patient_name_in_file: 'Smith^John',
          patient_birth_date_in_file: '1965-01-01',
        }),
      }),
    ]);
    const uid = list.studies[0]!.uid;
    expect(incomingListSchema.parse((await incomingOf(people.otherPhysician.token)).json()).studies).toEqual(
      [],
    );
    expect((await incomingOf(people.patient.token)).statusCode).toBe(403);
    // Nobody else can assign it, and nobody can assign it to a patient who is not theirs.
    expect(
      (await assign(people.otherPhysician.token, uid, { patient: people.otherPatient.id })).statusCode,
    ).toBe(404);
    expect((await assign(people.physician.token, uid, { patient: people.otherPatient.id })).statusCode).toBe(
      404,
    );

    const refused = await assign(people.physician.token, uid, { patient: people.patient.id });
    expect(refused.statusCode).toBe(409);
    expect(patientMismatchSchema.parse(refused.json()).found).toEqual([
      { name: 'Smith^John', birth_date: '1965-01-01', files: 2 },
    ]);

    const filed = await assign(people.physician.token, uid, {
      patient: people.patient.id,
      confirm_patient_mismatch: true,
    });
    expect(filed.statusCode).toBe(200);
    const { item_uid: itemUid } = assignIncomingResponseSchema.parse(filed.json());
    const images = await t.app.inject({
      method: 'GET',
      url: `/api/user/${people.patient.id}/images`,
      headers: bearer(people.patient.token),
    });
    expect(imagePageSchema.parse(images.json()).images).toEqual([
      expect.objectContaining({
        uid: itemUid,
        kind: 'study',
        study: expect.objectContaining({ instance_count: 2 }),
      }),
    ]);
    expect(incomingListSchema.parse((await incomingOf(people.physician.token)).json()).studies).toEqual([]);
    expect((await assign(people.physician.token, uid, { patient: people.patient.id })).statusCode).toBe(404);
  });

  it('shows a waiting study over DICOMweb to its receiver alone, then to the patient it is filed under', async () => {
    const studyUid = newUid();
    const file = await sampleCopy('MR_small.dcm', {
      studyUid,
      patientName: 'Doe^Jane',
      birthDate: '19800402',
    });
    const stored = await stow(t.app, people.physician.token, [file], '');
    expect(stored.statusCode).toBe(200);
    // Its receiver can retrieve what was stored, so the answer says where.
    const retrieveUrl = firstValue(dicomJsonDatasetSchema.parse(stored.json()), '00081190');
    expect(retrieveUrl).toMatch(new RegExp(`/dicomweb/studies/${studyUid}$`));

    const qido = (token: string) =>
      t.app.inject({
        method: 'GET',
        url: `/dicomweb/studies?StudyInstanceUID=${studyUid}`,
        headers: bearer(token),
      });
    const metadata = (token: string) =>
      t.app.inject({ method: 'GET', url: `/dicomweb/studies/${studyUid}/metadata`, headers: bearer(token) });
    const found = dicomJsonListSchema.parse((await qido(people.physician.token)).json());
    expect(found.map((study) => firstValue(study, '0020000D'))).toEqual([studyUid]);
    const [instance] = dicomJsonListSchema.parse((await metadata(people.physician.token)).json());
    expect(firstValue(instance!, '00100010')).toBe('Doe^Jane');
    for (const stranger of [people.otherPhysician, people.patient, people.otherPatient]) {
      expect(dicomJsonListSchema.parse((await qido(stranger.token)).json())).toEqual([]);
      expect((await metadata(stranger.token)).statusCode).toBe(404);
    }

    const [waiting] = incomingListSchema.parse((await incomingOf(people.physician.token)).json()).studies;
    expect(
      (await assign(people.physician.token, waiting!.uid, { patient: people.patient.id })).statusCode,
    ).toBe(200);
    expect(dicomJsonListSchema.parse((await qido(people.patient.token)).json())).toHaveLength(1);
    expect(dicomJsonListSchema.parse((await qido(people.physician.token)).json())).toHaveLength(1);
    expect(dicomJsonListSchema.parse((await qido(people.otherPhysician.token)).json())).toEqual([]);
  });

  it('adds files of a study filed under one of the physician’s patients to it; another physician keeps an independent copy', async () => {
    const studyUid = newUid();
    const jane = { studyUid, patientName: 'Doe^Jane', birthDate: '19800402' };
    const first = await sampleCopy('MR_small.dcm', jane);
    expect(
      (await stow(t.app, people.physician.token, [first], `?patient=${people.patient.id}`)).statusCode,
    ).toBe(200);
    const more = await sampleCopy('MR_small.dcm', jane);
    expect((await stow(t.app, people.physician.token, [more], '')).statusCode).toBe(200);
    expect(incomingListSchema.parse((await incomingOf(people.physician.token)).json()).studies).toEqual([]);
    const studies = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies?StudyInstanceUID=${studyUid}`,
      headers: bearer(people.patient.token),
    });
    expect(firstValue(dicomJsonListSchema.parse(studies.json())[0]!, '00201208')).toBe('2');

    // Another physician cannot add to it, nor tell that it exists: their files wait in their own
    // Incoming list, answered as any new study.
    const other = await sampleCopy('MR_small.dcm', { studyUid });
    expect((await stow(t.app, people.otherPhysician.token, [other], '')).statusCode).toBe(200);
    const theirs = incomingListSchema.parse((await incomingOf(people.otherPhysician.token)).json()).studies;
    expect(theirs.map((waiting) => waiting.study.study_instance_uid)).toEqual([studyUid]);
    const after = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies?StudyInstanceUID=${studyUid}`,
      headers: bearer(people.patient.token),
    });
    expect(firstValue(dicomJsonListSchema.parse(after.json())[0]!, '00201208')).toBe('2');
  });

  it('never merges files naming someone else into a patient’s study; assigning checks every file', async () => {
    const studyUid = newUid();
    const jane = { studyUid, patientName: 'Doe^Jane', birthDate: '19800402' };
    const first = await sampleCopy('MR_small.dcm', jane);
    expect(
      (await stow(t.app, people.physician.token, [first], `?patient=${people.patient.id}`)).statusCode,
    ).toBe(200);
    // Without a patient, files of the same study that name someone else wait in Incoming instead.
    const janeAgain = await sampleCopy('MR_small.dcm', jane);
    const smith = await sampleCopy('MR_small.dcm', {
      studyUid,
      patientName: 'Smith^John',
      birthDate: '19650101',
    });
    expect((await stow(t.app, people.physician.token, [janeAgain, smith], '')).statusCode).toBe(200);
    const [waiting] = incomingListSchema.parse((await incomingOf(people.physician.token)).json()).studies;
    expect(waiting?.study.study_instance_uid).toBe(studyUid);
    const studies = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies?StudyInstanceUID=${studyUid}`,
      headers: bearer(people.patient.token),
    });
    expect(firstValue(dicomJsonListSchema.parse(studies.json())[0]!, '00201208')).toBe('1');

    // Its first file names the patient; the guard still lists both people the files name.
    const refused = await assign(people.physician.token, waiting!.uid, { patient: people.patient.id });
    expect(refused.statusCode).toBe(409);
    expect(patientMismatchSchema.parse(refused.json()).found).toEqual(
      expect.arrayContaining([
        { name: 'Doe^Jane', birth_date: '1980-04-02', files: 1 },
        { name: 'Smith^John', birth_date: '1965-01-01', files: 1 },
      ]),
    );
    // Confirmed, it cannot join the patient's study of the same UID: the patient holds one already.
    const confirmed = await assign(people.physician.token, waiting!.uid, {
      patient: people.patient.id,
      confirm_patient_mismatch: true,
    });
    expect(confirmed.statusCode).toBe(409);
    expect(confirmed.json()).toEqual({ success: false, msg: STUDY_MESSAGES.alreadyFiled });
  });

  it('files studies received before Incoming studies were archive items, once, at start', async () => {
    const db = t.database.db;
    const studyUid = newUid();
    const file = await sampleCopy('CT_small.dcm', { studyUid, patientName: 'Roe^Richard' });
    const [legacy] = await db
      .insert(incomingStudies)
      .values({ receiverId: people.otherPhysician.id, studyInstanceUid: studyUid, source: 'Old PACS' })
      .returning();
    const storageKey = `incoming/${legacy!.id}/1.dcm`;
    await t.app.ctx.storage.putBuffer(storageKey, file);
    await db.insert(incomingInstances).values({
      incomingId: legacy!.id,
      sopInstanceUid: newUid(),
      seriesInstanceUid: newUid(),
      storageKey,
      size: file.length,
    });

    const waitingOf = async () =>
      incomingListSchema
        .parse((await incomingOf(people.otherPhysician.token)).json())
        .studies.filter((study) => study.study.study_instance_uid === studyUid);
    await refileLegacyIncoming(t.app.ctx);
    const [waiting] = await waitingOf();
    expect(waiting).toMatchObject({
      source: 'Old PACS',
      study: { study_instance_uid: studyUid, instance_count: 1, patient_name_in_file: 'Roe^Richard' },
    });
    expect(await db.select().from(incomingStudies)).toEqual([]);
    expect(await t.app.ctx.storage.stat(storageKey)).toBeUndefined();
    // Run again, nothing changes.
    await refileLegacyIncoming(t.app.ctx);
    expect(await waitingOf()).toHaveLength(1);
  });

  it('is for physicians: no token 401, a patient or radiologist 403', async () => {
    const radiologist = await signIn(t.app, (await createRadiologist(t.database.db)).email);
    const someId = '00000000-0000-4000-8000-000000000000';
    for (const headers of [{}, bearer(people.patient.token), bearer(radiologist.token)]) {
      const expected = 'authorization' in headers ? 403 : 401;
      const list = await t.app.inject({ method: 'GET', url: '/api/user/incoming', headers });
      expect(list.statusCode).toBe(expected);
      const assigned = await t.app.inject({
        method: 'POST',
        url: `/api/user/incoming/${someId}/assign`,
        headers,
        payload: { patient: people.patient.id },
      });
      expect(assigned.statusCode).toBe(expected);
    }
  });

  it('answers 404 for an id that is not one', async () => {
    expect((await assign(people.physician.token, 'nope', { patient: people.patient.id })).statusCode).toBe(
      404,
    );
  });
});
