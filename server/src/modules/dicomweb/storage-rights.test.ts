import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ERROR_BODIES, uploadStudyResponseSchema } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPhysician, createRadiologist, signIn } from '../../../test/factories.js';
import { addInvoice } from '../../../test/annotated-archive.js';
import { soon } from '../../../test/soon.js';
import { newUid } from '../../../test/dicom-files.js';
import { hostileFile } from '../../../test/hostile-dicom.js';
import { physicianWithPatient, stow, stowFailureReasons } from '../../../test/stow.js';
import { createUpload, uploadFile } from '../../../test/uploads.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { studies } from '../../db/schema/studies.js';

type Person = { id: string; token: string };

async function person(t: TestApp, user: { id: string; email: string }): Promise<Person> {
  return { id: user.id, token: (await signIn(t.app, user.email)).token };
}

describe('who may store (docs/security.md §3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('stores nothing from an account whose address is not confirmed', async () => {
    const { physician } = await physicianWithPatient(t, { emailVerified: false });
    const sent = await stow(t.app, physician.token, [hostileFile().bytes], '');
    expect(sent.statusCode).toBe(403);
    expect(sent.json()).toEqual(ERROR_BODIES.unverified);

    const upload = await createUpload(t.app, physician.token, { size: 1000, purpose: 'dicom' });
    expect(upload.statusCode).toBe(403);
    expect(upload.json()).toEqual(ERROR_BODIES.unverified);
  });

  it('lets a radiologist file new studies for a patient they were paid for, never add to studies they cannot read', async () => {
    const { physician, patient } = await physicianWithPatient(t);
    const radiologist = await person(t, await createRadiologist(t.database.db));
    const fileStudy = async (token: string, studyUid: string) =>
      stow(
        t.app,
        token,
        [hostileFile({ studyUid }).bytes],
        `?patient=${patient.id}&confirm_patient_mismatch=true`,
      );
    const paidStudy = newUid();
    const otherStudy = newUid();
    expect((await fileStudy(physician.token, paidStudy)).statusCode).toBe(200);
    expect((await fileStudy(physician.token, otherStudy)).statusCode).toBe(200);
    const itemOf = async (uid: string) =>
      (await t.database.db.select().from(studies).where(eq(studies.studyInstanceUid, uid)))[0]!;
    await addInvoice(t, patient, radiologist, (await itemOf(paidStudy)).itemId, true);

    // Into the study they were paid for: filed. Into the patient's other study: refused, unchanged.
    expect((await fileStudy(radiologist.token, paidStudy)).statusCode).toBe(200);
    const refused = await fileStudy(radiologist.token, otherStudy);
    expect(refused.statusCode).toBe(409);
    expect(stowFailureReasons(refused.json())).toEqual([0x0110]);
    expect(await itemOf(otherStudy)).toMatchObject({ instanceCount: 1 });
    // A new study of their own for the patient: filed.
    expect((await fileStudy(radiologist.token, newUid())).statusCode).toBe(200);
  });
});

describe('who may store, as access changes (decisions cached until the change feed drops them)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const fileStudy = (token: string, patientId: string, studyUid: string) =>
    stow(
      t.app,
      token,
      [hostileFile({ studyUid }).bytes],
      `?patient=${patientId}&confirm_patient_mismatch=true`,
    );
  const itemOf = async (uid: string) =>
    (await t.database.db.select().from(studies).where(eq(studies.studyInstanceUid, uid)))[0]!;

  it('lets a radiologist store the moment the patient pays them, and no longer once the payment is undone', async () => {
    const { physician, patient } = await physicianWithPatient(t);
    const radiologist = await person(t, await createRadiologist(t.database.db));
    const study = newUid();
    expect((await fileStudy(physician.token, patient.id, study)).statusCode).toBe(200);
    // Refused, twice (the second answer is the kept decision).
    expect((await fileStudy(radiologist.token, patient.id, study)).statusCode).toBe(404);
    expect((await fileStudy(radiologist.token, patient.id, newUid())).statusCode).toBe(404);

    // The patient asks the radiologist and pays, as they do on the page.
    const invoice = await t.app.inject({
      method: 'POST',
      url: `/api/payment/${radiologist.id}/invoice`,
      headers: bearer(patient.token),
      payload: { image: (await itemOf(study)).itemId },
    });
    expect(invoice.statusCode).toBeLessThan(300);
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/payment/sandbox/${invoice.json<{ invoice: { uid: string } }>().invoice.uid}/pay`,
      headers: bearer(patient.token),
    });
    expect(paid.statusCode).toBe(200);
    // At once: into the paid study, and a new study for the patient.
    expect((await fileStudy(radiologist.token, patient.id, study)).statusCode).toBe(200);
    expect((await fileStudy(radiologist.token, patient.id, newUid())).statusCode).toBe(200);

    // The payment undone in the database (plain SQL, as an operator would): the triggers announce
    // it and the kept decisions go, the one on the study and the one on the patient.
    await t.database.executeSql(`update invoices set status = 'void' where id = $1`, [
      invoice.json<{ invoice: { uid: string } }>().invoice.uid,
    ]);
    expect(
      await soon(async () => (await fileStudy(radiologist.token, patient.id, study)).statusCode === 404),
    ).toBe(true);
    expect((await fileStudy(radiologist.token, patient.id, newUid())).statusCode).toBe(404);
  });

  it('refuses a physician the moment their patient is no longer theirs, and files for their new physician', async () => {
    const { physician, patient } = await physicianWithPatient(t);
    const next = await person(t, await createPhysician(t.database.db));
    const study = newUid();
    expect((await fileStudy(physician.token, patient.id, study)).statusCode).toBe(200);
    expect((await fileStudy(next.token, patient.id, study)).statusCode).toBe(404);

    await t.database.executeSql(`update patient_physicians set physician_id = $1 where patient_id = $2`, [
      next.id,
      patient.id,
    ]);
    expect(
      await soon(async () => (await fileStudy(physician.token, patient.id, study)).statusCode === 404),
    ).toBe(true);
    expect((await fileStudy(physician.token, patient.id, newUid())).statusCode).toBe(404);
    expect((await fileStudy(next.token, patient.id, study)).statusCode).toBe(200);
  });
});

describe('the storage quota (docs/security.md §8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // 2.5 files of the hostile size (about 1 KB each) fit.
    const fileBytes = hostileFile().bytes.length;
    t = await createTestApp({ STORAGE_QUOTA_GB: String((fileBytes * 2.5) / 1024 ** 3) });
  });
  afterAll(() => t.close());

  it('stores what fits, refuses each instance beyond it, then answers 413 once the storage is full', async () => {
    const { physician, patient } = await physicianWithPatient(t);
    const studyUid = newUid();
    const files = [0, 1, 2].map(() => hostileFile({ studyUid }).bytes);
    const query = `?patient=${patient.id}&confirm_patient_mismatch=true`;
    const first = await stow(t.app, physician.token, files, query);
    expect(first.statusCode).toBe(202);
    expect(stowFailureReasons(first.json())).toEqual([0xa700]);

    // What is left is less than one more file: refused one by one.
    const beyond = await stow(t.app, physician.token, [hostileFile().bytes], query);
    expect(beyond.statusCode).toBe(409);
    expect(stowFailureReasons(beyond.json())).toEqual([0xa700]);

    // Once the storage is used up to the byte, requests are refused whole, before anything is read.
    await t.database.db
      .update(archiveItems)
      .set({ size: t.config.uploads.storageQuotaBytes })
      .where(eq(archiveItems.uploaderId, physician.id));
    const full = await stow(t.app, physician.token, [hostileFile().bytes], query);
    expect(full.statusCode).toBe(413);
    expect(full.json()).toEqual(ERROR_BODIES.storageFull);
    const upload = await createUpload(t.app, physician.token, { size: 1000, purpose: 'dicom' });
    expect(upload.statusCode).toBe(413);
    expect(upload.json()).toEqual(ERROR_BODIES.storageFull);
  });

  it('files the uploads that fit and lists the rest as refused for the quota', async () => {
    const { physician, patient } = await physicianWithPatient(t);
    const uploads = [
      await uploadFile(t.app, physician.token, hostileFile().bytes, 'dicom'),
      await uploadFile(t.app, physician.token, hostileFile().bytes, 'dicom'),
      await uploadFile(t.app, physician.token, hostileFile().bytes, 'dicom'),
    ];
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/upload-study',
      headers: bearer(physician.token),
      payload: { patient: patient.id, uploads, confirm_patient_mismatch: true },
    });
    expect(response.statusCode).toBe(201);
    const filed = uploadStudyResponseSchema.parse(response.json());
    expect(filed.items.reduce((total, item) => total + item.instances, 0)).toBe(2);
    expect(filed.skipped.map((file) => file.reason)).toEqual(['Your storage is full.']);
  });
});

describe('DICOMweb rate limits (docs/security.md §8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ DICOMWEB_READS_PER_MINUTE: '5', DICOMWEB_WRITES_PER_MINUTE: '2' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After past a user’s reads or writes a minute, counted per user and apart', async () => {
    const { physician, patient } = await physicianWithPatient(t);
    const other = await physicianWithPatient(t);
    const search = (token: string) =>
      t.app.inject({ method: 'GET', url: '/dicomweb/studies', headers: bearer(token) });
    for (let read = 0; read < 5; read += 1) {
      expect((await search(physician.token)).statusCode).toBe(200);
    }
    const limited = await search(physician.token);
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual(ERROR_BODIES.tooManyRequests);
    // Another user, and this user's writes, are counted apart.
    expect((await search(other.physician.token)).statusCode).toBe(200);
    const write = () =>
      stow(
        t.app,
        physician.token,
        [hostileFile().bytes],
        `?patient=${patient.id}&confirm_patient_mismatch=true`,
      );
    expect((await write()).statusCode).toBe(200);
    expect((await write()).statusCode).toBe(200);
    expect((await write()).statusCode).toBe(429);
  });
});
