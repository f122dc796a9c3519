import crypto from 'node:crypto';
import { annotationListSchema, imageResponseSchema, uploadStudyResponseSchema } from '@ra/shared';
import { createTestApp, type TestApp } from './test-app.js';
import { bearer, createPatient, createPhysician, createRadiologist, signIn } from './factories.js';
import { newUid, sampleCopy } from './dicom-files.js';
import { pngImage, uploadFile } from './uploads.js';
import { invoices } from '../src/db/schema/index.js';
import { linkPatient } from '../src/modules/patients/patients.repository.js';

/**
 * The archive the annotation and key-image tests work on: a patient with a raster image and a
 * study (one CT series of two single-frame instances), their physician, a radiologist the patient
 * has paid for both, one whose invoice is open, and another patient with their own study.
 */

export type Person = { id: string; token: string };
export type Who =
  'physician' | 'otherPhysician' | 'patient' | 'otherPatient' | 'radiologist' | 'unpaidRadiologist';

export interface AnnotatedArchive {
  people: Record<Who, Person>;
  items: { image: string; study: string; foreignStudy: string };
  uids: { series: string; first: string; second: string; foreignSeries: string; foreign: string };
}

function check(response: { statusCode: number; body: string }, status: number, what: string): void {
  if (response.statusCode !== status) {
    throw new Error(`${what} failed: ${response.statusCode} ${response.body}`);
  }
}

export async function signedIn(t: TestApp, user: { id: string; email: string }): Promise<Person> {
  return { id: user.id, token: (await signIn(t.app, user.email)).token };
}

export async function uploadImageFor(t: TestApp, physician: Person, patientId: string): Promise<string> {
  const url = await uploadFile(t.app, physician.token, await pngImage(32, 32));
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/upload-image',
    headers: bearer(physician.token),
    payload: { patient: patientId, url },
  });
  check(response, 201, 'upload-image');
  return response.json<{ uid: string }>().uid;
}

async function fileStudy(t: TestApp, physician: Person, patientId: string, files: Buffer[]) {
  const uploads: string[] = [];
  for (const bytes of files) {
    uploads.push(await uploadFile(t.app, physician.token, bytes, 'dicom'));
  }
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/upload-study',
    headers: bearer(physician.token),
    payload: { patient: patientId, uploads, confirm_patient_mismatch: true },
  });
  check(response, 201, 'upload-study');
  return uploadStudyResponseSchema.parse(response.json()).items[0]!.uid;
}

/** The patient's invoice for a radiologist's opinion on an item, paid or still open. */
export async function addInvoice(
  t: TestApp,
  patient: Person,
  radiologist: Person,
  item: string,
  isPaid: boolean,
): Promise<void> {
  await t.database.db.insert(invoices).values({
    patientId: patient.id,
    radiologistId: radiologist.id,
    itemId: item,
    amountCents: 15000,
    status: isPaid ? 'paid' : 'open',
    provider: 'sandbox',
    url: '/pay/x',
  });
}

export async function setUpAnnotatedArchive(t: TestApp): Promise<AnnotatedArchive> {
  const db = t.database.db;
  const accounts = {
    physician: await createPhysician(db, { firstName: 'Phil', lastName: 'Doc' }),
    otherPhysician: await createPhysician(db),
    patient: await createPatient(db, { firstName: 'Pat', lastName: 'One' }),
    otherPatient: await createPatient(db),
    radiologist: await createRadiologist(db, { firstName: 'Ray', lastName: 'Diologist' }),
    unpaidRadiologist: await createRadiologist(db),
  };
  const people = {} as Record<Who, Person>;
  for (const [name, user] of Object.entries(accounts)) {
    people[name as Who] = await signedIn(t, user);
  }
  await linkPatient(db, people.patient.id, people.physician.id);
  await linkPatient(db, people.otherPatient.id, people.otherPhysician.id);

  const uids = {
    series: newUid(),
    first: newUid(),
    second: newUid(),
    foreignSeries: newUid(),
    foreign: newUid(),
  };
  const ct = { studyUid: newUid(), seriesUid: uids.series, patientName: 'One^Pat', birthDate: '19850203' };
  const items = {
    image: await uploadImageFor(t, people.physician, people.patient.id),
    study: await fileStudy(t, people.physician, people.patient.id, [
      await sampleCopy('CT_small.dcm', { ...ct, sopUid: uids.first, instanceNumber: 1 }),
      await sampleCopy('CT_small.dcm', { ...ct, sopUid: uids.second, instanceNumber: 2 }),
    ]),
    foreignStudy: await fileStudy(t, people.otherPhysician, people.otherPatient.id, [
      await sampleCopy('CT_small.dcm', { seriesUid: uids.foreignSeries, sopUid: uids.foreign }),
    ]),
  };
  await addInvoice(t, people.patient, people.radiologist, items.study, true);
  await addInvoice(t, people.patient, people.radiologist, items.image, true);
  await addInvoice(t, people.patient, people.unpaidRadiologist, items.study, false);
  return { people, items, uids };
}

/** The annotation and note calls, as a caller (undefined: without a token) makes them. */
export function annotationCalls(t: TestApp) {
  const path = (item: string, annotation?: string) =>
    `/api/image/${item}/annotations${annotation === undefined ? '' : `/${annotation}`}`;
  const headers = (who: Person | undefined) => (who ? bearer(who.token) : {});
  const calls = {
    list: (who: Person | undefined, item: string) =>
      t.app.inject({ method: 'GET', url: path(item), headers: headers(who) }),
    put: (who: Person | undefined, item: string, annotation: string, payload: unknown) =>
      t.app.inject({
        method: 'PUT',
        url: path(item, annotation),
        headers: headers(who),
        payload: payload as Record<string, unknown>,
      }),
    remove: (who: Person | undefined, item: string, annotation: string) =>
      t.app.inject({ method: 'DELETE', url: path(item, annotation), headers: headers(who) }),
    patchNote: (who: Person, item: string, payload: Record<string, unknown>) =>
      t.app.inject({ method: 'PATCH', url: `/api/image/${item}`, headers: bearer(who.token), payload }),
    /** Saves a new annotation and returns its uid. */
    create: async (who: Person, item: string, payload: unknown): Promise<string> => {
      const uid = crypto.randomUUID();
      check(await calls.put(who, item, uid, payload), 200, 'PUT annotation');
      return uid;
    },
    /** The uids of the annotations the caller sees on the item, in the answer's order. */
    uidsSeenBy: async (who: Person, item: string): Promise<string[]> => {
      const response = await calls.list(who, item);
      check(response, 200, 'GET annotations');
      return annotationListSchema.parse(response.json()).annotations.map((annotation) => annotation.uid);
    },
    /** An author's key images as GET /api/image/{uid} shows them to the caller; undefined: no note. */
    keyImagesOf: async (who: Person, item: string, author: Person) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/image/${item}`,
        headers: bearer(who.token),
      });
      check(response, 200, 'GET image');
      const image = imageResponseSchema.parse(response.json()).image;
      return image.authors.find((entry) => entry.uid === author.id)?.key_images;
    },
  };
  return calls;
}

/** A frame of the archive's study (its first instance unless told). */
export function frameOf(uids: AnnotatedArchive['uids'], sop = uids.first, frame = 1, series = uids.series) {
  return { series_instance_uid: series, sop_instance_uid: sop, frame };
}

/** A length on the study's first frame, as a PUT body; `overrides` replace its fields. */
export function lengthOnStudy(uids: AnnotatedArchive['uids'], overrides: Record<string, unknown> = {}) {
  return {
    kind: 'length',
    frame: frameOf(uids),
    data: {
      points: [
        [10, 20],
        [30, 40.5],
      ],
    },
    ...overrides,
  };
}

/** A test app of its own with the archive above and the annotation calls, for a file's beforeAll. */
export async function startAnnotatedArchive() {
  const t = await createTestApp({}, { jobPollingSeconds: 0.5 });
  return { t, archive: await setUpAnnotatedArchive(t), calls: annotationCalls(t) };
}
