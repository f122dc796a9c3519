import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { dicomJsonListSchema, firstValue, uploadStudyResponseSchema } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { sampleCopy } from '../../../test/dicom-files.js';
import { uploadFile } from '../../../test/uploads.js';
import { linkPatient } from '../patients/patients.repository.js';
import { patientPhysicians } from '../../db/schema/care.js';
import { archiveItems } from '../../db/schema/archive-items.js';

/*
 * A reader's rows of an instance are kept between its frame reads (instance-rows-cache.ts): kept
 * rows must never let anyone read on once the archive or their rights changed.
 */

let t: TestApp;
const ACCEPT = 'multipart/related; type="application/octet-stream"; transfer-syntax=*';
/** How long a committed change may take to reach the cache through the change feed. */
const DELIVERY_MS = 5_000;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A physician's patient with a 15-frame instance filed: the instance's URL and its item. */
async function filedInstance() {
  const db = t.database.db;
  const physician = await createPhysician(db);
  const patient = await createPatient(db);
  await linkPatient(db, patient.id, physician.id);
  const physicianToken = (await signIn(t.app, physician.email)).token;
  const patientToken = (await signIn(t.app, patient.email)).token;
  const bytes = await sampleCopy('rtdose.dcm', { patientName: 'Doe^Jane', birthDate: '19800402' });
  const filed = await t.app.inject({
    method: 'POST',
    url: '/api/user/upload-study',
    headers: bearer(physicianToken),
    payload: {
      patient: patient.id,
      uploads: [await uploadFile(t.app, physicianToken, bytes, 'dicom')],
      confirm_patient_mismatch: true,
    },
  });
  expect(filed.statusCode, filed.body).toBe(201);
  const item = uploadStudyResponseSchema.parse(filed.json()).items[0]!;
  const listed = await t.app.inject({
    method: 'GET',
    url: `/dicomweb/studies/${item.study_instance_uid}/instances`,
    headers: bearer(patientToken),
  });
  const [instance] = dicomJsonListSchema.parse(listed.json());
  const url = `/dicomweb/studies/${item.study_instance_uid}/series/${firstValue(instance!, '0020000E')}/instances/${firstValue(instance!, '00080018')}`;
  return { physician, patient, physicianToken, patientToken, url, itemId: item.uid };
}

async function frameStatus(token: string, url: string, frame: number) {
  const response = await t.app.inject({
    method: 'GET',
    url: `${url}/frames/${frame}`,
    headers: { ...bearer(token), accept: ACCEPT },
  });
  return response.statusCode;
}

/** Reads frames until one is refused: how long that took, or fails past the delivery bound. */
async function refusedWithin(token: string, url: string): Promise<number> {
  const started = Date.now();
  for (let frame = 1; Date.now() - started < DELIVERY_MS; frame = (frame % 15) + 1) {
    const status = await frameStatus(token, url, frame);
    if (status === 404) {
      return Date.now() - started;
    }
    expect(status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`frames were still served ${DELIVERY_MS} ms after the change`);
}

describe('frames read again and again', () => {
  it("stop at once for a physician no longer the patient's, and not for the patient", async () => {
    const { physician, patient, physicianToken, patientToken, url } = await filedInstance();
    // Three reads: the first finds the patient, the second keeps the rows, the third is served kept.
    for (const frame of [1, 2, 3]) {
      expect(await frameStatus(physicianToken, url, frame)).toBe(200);
      expect(await frameStatus(patientToken, url, frame)).toBe(200);
    }
    await t.database.db
      .delete(patientPhysicians)
      .where(
        and(eq(patientPhysicians.patientId, patient.id), eq(patientPhysicians.physicianId, physician.id)),
      );
    await refusedWithin(physicianToken, url);
    expect(await frameStatus(patientToken, url, 4)).toBe(200);
  });

  it('stop at once for everyone when the study is deleted', async () => {
    const { physicianToken, patientToken, url, itemId } = await filedInstance();
    for (const frame of [1, 2, 3]) {
      expect(await frameStatus(patientToken, url, frame)).toBe(200);
      expect(await frameStatus(physicianToken, url, frame)).toBe(200);
    }
    await t.database.db.delete(archiveItems).where(eq(archiveItems.id, itemId));
    await refusedWithin(patientToken, url);
    await refusedWithin(physicianToken, url);
  });

  it('are never served from another reader’s kept rows', async () => {
    const { patientToken, url } = await filedInstance();
    const stranger = await createPatient(t.database.db);
    const strangerToken = (await signIn(t.app, stranger.email)).token;
    for (const frame of [1, 2, 3]) {
      expect(await frameStatus(patientToken, url, frame)).toBe(200);
      expect(await frameStatus(strangerToken, url, frame)).toBe(404);
    }
  });
});
