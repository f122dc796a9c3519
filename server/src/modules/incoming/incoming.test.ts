import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assignIncomingResponseSchema,
  imagePageSchema,
  incomingListSchema,
  patientMismatchSchema,
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
import { linkPatient } from '../patients/patients.repository.js';

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

describe('the Incoming list (api-contract §10.3)', () => {
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
    expect(patientMismatchSchema.parse(refused.json()).found).toEqual({
      name: 'Smith^John',
      birth_date: '1965-01-01',
    });

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
