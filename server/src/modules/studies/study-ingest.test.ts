import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import {
  imagePageSchema,
  patientMismatchSchema,
  STUDY_MESSAGES,
  uploadStudyResponseSchema,
  type Image,
} from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { newUid, sampleCopy } from '../../../test/dicom-files.js';
import { readDicomSample } from '../../../test/dicom-samples.js';
import { createUpload, tusRequest, uploadFile } from '../../../test/uploads.js';
import { buildZip } from '../../../test/zip-writer.js';
import { dicomBundle } from '../../../test/dicom-bundle.js';
import { NOT_A_BUNDLE } from '../uploads/tus-server.js';
import { UPLOAD_NOT_FOUND } from '../uploads/uploads.service.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { dicomInstances, dicomSeries, studies } from '../../db/schema/studies.js';
import { linkPatient } from '../patients/patients.repository.js';

let t: TestApp;
const people = {} as Record<
  'physician' | 'patient' | 'otherPatient' | 'otherPhysician',
  { id: string; token: string }
>;
/** The patient's name and birth date as the DICOM files of the tests give them. */
const JANE = { patientName: 'Doe^Jane', birthDate: '19800402' };

beforeAll(async () => {
  t = await createTestApp({}, { jobPollingSeconds: 0.5 });
  const db = t.database.db;
  const accounts = {
    physician: await createPhysician(db),
    otherPhysician: await createPhysician(db),
    patient: await createPatient(db, { firstName: 'Jane', lastName: 'Doe', dob: '1980-04-02' }),
    otherPatient: await createPatient(db, { firstName: 'Otto', lastName: 'Other', dob: '1970-01-01' }),
  };
  for (const [name, user] of Object.entries(accounts)) {
    people[name as keyof typeof people] = { id: user.id, token: (await signIn(t.app, user.email)).token };
  }
  await linkPatient(db, accounts.patient.id, accounts.physician.id);
  await linkPatient(db, accounts.otherPatient.id, accounts.physician.id);
});
afterAll(() => t.close());

/** The Series Instance UID of a study's only series. */
async function sampleSeriesOf(itemId: string): Promise<string> {
  const [series] = await t.database.db
    .select({ uid: dicomSeries.seriesInstanceUid })
    .from(dicomSeries)
    .where(eq(dicomSeries.itemId, itemId));
  return series!.uid;
}

function fileStudy(token: string, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/upload-study',
    headers: bearer(token),
    payload: body,
  });
}

async function uploadAll(
  files: Buffer[],
  purpose = 'dicom',
  token = people.physician.token,
): Promise<string[]> {
  const urls: string[] = [];
  for (const file of files) {
    urls.push(await uploadFile(t.app, token, file, purpose));
  }
  return urls;
}

/** Uploads one file (a ZIP, a bundle) and files it for the patient: upload-study's answer. */
async function uploadAndFile(body: Buffer, purpose: string, filename: string) {
  const created = await createUpload(t.app, people.physician.token, {
    size: body.length,
    purpose,
    filename,
    body,
  });
  expect(created.statusCode).toBe(201);
  return fileStudy(people.physician.token, {
    patient: people.patient.id,
    uploads: [created.headers.location as string],
  });
}

/** The working folders of bundles read ahead of their filing. */
async function readAhead(): Promise<string[]> {
  const names = await fs.readdir(path.join(t.config.storageDir, 'unpacked'));
  return names.filter((name) => name.startsWith('early-'));
}

/** The physician uploads a bundle of one CT file of the study; returns its URL once it is read ahead. */
async function uploadOneFileBundle(studyUid: string): Promise<string> {
  const bundle = dicomBundle([
    { path: 'IM1', bytes: await sampleCopy('CT_small.dcm', { ...JANE, studyUid }) },
  ]);
  const created = await createUpload(t.app, people.physician.token, {
    size: bundle.length,
    purpose: 'dicom-bundle',
    body: bundle,
  });
  await expect.poll(readAhead).toHaveLength(1);
  return created.headers.location as string;
}

async function listOf(patientId: string, token: string): Promise<Image[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/user/${patientId}/images`,
    headers: bearer(token),
  });
  return imagePageSchema.parse(response.json()).images;
}

/** Waits for the background preview job to give the item a thumbnail. */
async function waitForPreview(uid: string): Promise<Image> {
  for (let attempt = 0; attempt < 150; attempt += 1) {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/image/${uid}`,
      headers: bearer(people.physician.token),
    });
    const image = response.json().image as Image;
    if (image.thumbnail_url) {
      return image;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no preview for ${uid}`);
}

describe('filing DICOM studies (docs/api.md §12.1)', () => {
  it('files one item per study with its series and instances, lists it as a study and draws its preview', async () => {
    const studyUid = newUid();
    const seriesUid = newUid();
    const files = [
      await sampleCopy('CT_small.dcm', { ...JANE, studyUid, seriesUid, instanceNumber: 1 }),
      await sampleCopy('CT_small.dcm', { ...JANE, studyUid, seriesUid, instanceNumber: 2 }),
      await sampleCopy('MR_small.dcm', { ...JANE, studyUid, seriesNumber: 2 }),
      await sampleCopy('MR_small.dcm', { ...JANE }),
    ];
    const response = await fileStudy(people.physician.token, {
      patient: people.patient.id,
      uploads: await uploadAll(files),
      notes: 'Head CT and MR',
    });
    expect(response.statusCode).toBe(201);
    const filed = uploadStudyResponseSchema.parse(response.json());
    expect(filed.items).toHaveLength(2);
    const main = filed.items.find((item) => item.study_instance_uid === studyUid)!;
    expect(main).toMatchObject({ instances: 3, skipped: [] });
    expect(filed.skipped).toEqual([]);

    const listed = (await listOf(people.patient.id, people.patient.token)).find(
      (item) => item.uid === main.uid,
    )!;
    expect(listed).toMatchObject({
      kind: 'study',
      study: {
        study_instance_uid: studyUid,
        modalities: ['CT', 'MR'],
        series_count: 2,
        instance_count: 3,
        patient_name_in_file: 'Doe^Jane',
        patient_birth_date_in_file: '1980-04-02',
      },
      authors: [expect.objectContaining({ note: 'Head CT and MR' })],
    });

    // The files are stored byte for byte as received.
    const rows = await t.database.db.select().from(dicomInstances).where(eq(dicomInstances.itemId, main.uid));
    const stored = await t.app.ctx.storage.read(rows.find((row) => row.instanceNumber === 2)!.storageKey);
    const chunks: Buffer[] = [];
    for await (const chunk of stored) {
      chunks.push(chunk as Buffer);
    }
    expect(Buffer.concat(chunks).equals(files[1]!)).toBe(true);

    const withPreview = await waitForPreview(main.uid);
    const thumbnail = await t.app.inject({ method: 'GET', url: withPreview.thumbnail_url! });
    expect(await sharp(thumbnail.rawPayload).metadata()).toMatchObject({
      format: 'webp',
      width: 128,
      height: 128,
    });
    expect(withPreview).toMatchObject({ width: 128, height: 128 });
    const preview = await t.app.inject({ method: 'GET', url: withPreview.url });
    expect(await sharp(preview.rawPayload).metadata()).toMatchObject({
      format: 'png',
      width: 128,
      height: 128,
    });
  });

  it('stores the same SOP Instance UID once, within one filing and across filings', async () => {
    const copy = await sampleCopy('CT_small.dcm', JANE);
    const first = uploadStudyResponseSchema.parse(
      (
        await fileStudy(people.physician.token, {
          patient: people.patient.id,
          uploads: await uploadAll([copy, copy]),
        })
      ).json(),
    );
    expect(first.items[0]).toMatchObject({ instances: 1, skipped: [{ reason: STUDY_MESSAGES.duplicate }] });

    const again = await fileStudy(people.physician.token, {
      patient: people.patient.id,
      uploads: await uploadAll([copy]),
    });
    expect(again.statusCode).toBe(201);
    const second = uploadStudyResponseSchema.parse(again.json());
    expect(second.items).toEqual([
      {
        uid: first.items[0]!.uid,
        study_instance_uid: first.items[0]!.study_instance_uid,
        instances: 0,
        skipped: [expect.objectContaining({ reason: STUDY_MESSAGES.duplicate })],
      },
    ]);
  });

  it("keeps a study's figures right as filings add to it: counts, modalities and size, duplicates counting nothing", async () => {
    const studyUid = newUid();
    const ctSeries = newUid();
    const ct = (instanceNumber: number) =>
      sampleCopy('CT_small.dcm', { ...JANE, studyUid, seriesUid: ctSeries, instanceNumber });
    const files = [await ct(1), await ct(2), await ct(3)];
    const mr = await sampleCopy('MR_small.dcm', { ...JANE, studyUid });
    const filings = [[files[0]!], [files[0]!, files[1]!, files[2]!], [mr]];
    let uid = '';
    for (const filing of filings) {
      const response = await fileStudy(people.physician.token, {
        patient: people.patient.id,
        uploads: await uploadAll(filing),
      });
      expect(response.statusCode).toBe(201);
      uid = uploadStudyResponseSchema.parse(response.json()).items[0]!.uid;
    }
    const [study] = await t.database.db.select().from(studies).where(eq(studies.itemId, uid));
    expect(study).toMatchObject({ instanceCount: 4, seriesCount: 2, modalities: ['CT', 'MR'] });
    const series = await t.database.db
      .select({ uid: dicomSeries.seriesInstanceUid, count: dicomSeries.instanceCount })
      .from(dicomSeries)
      .where(eq(dicomSeries.itemId, uid));
    expect(series).toHaveLength(2);
    expect(series.find((row) => row.uid === ctSeries)?.count).toBe(3);
    expect(series.find((row) => row.uid !== ctSeries)?.count).toBe(1);
    const [item] = await t.database.db
      .select({ size: archiveItems.size })
      .from(archiveItems)
      .where(eq(archiveItems.id, uid));
    expect(item?.size).toBe([...files, mr].reduce((total, file) => total + file.length, 0));
  });

  it('asks before filing files that name another patient, keeps the uploads, and files once confirmed', async () => {
    const uploads = await uploadAll([
      await sampleCopy('MR_small.dcm', { patientName: 'Smith^John', birthDate: '19650101' }),
    ]);
    const refused = await fileStudy(people.physician.token, { patient: people.patient.id, uploads });
    expect(refused.statusCode).toBe(409);
    expect(patientMismatchSchema.parse(refused.json())).toEqual({
      success: false,
      msg: STUDY_MESSAGES.patientMismatch,
      found: [{ name: 'Smith^John', birth_date: '1965-01-01', files: 1 }],
    });

    const confirmed = await fileStudy(people.physician.token, {
      patient: people.patient.id,
      uploads,
      confirm_patient_mismatch: true,
    });
    expect(confirmed.statusCode).toBe(201);
    const [item] = uploadStudyResponseSchema.parse(confirmed.json()).items;
    const [row] = await t.database.db.select().from(studies).where(eq(studies.itemId, item!.uid));
    expect(row).toMatchObject({ patientNameInFile: 'Smith^John', patientBirthDateInFile: '1965-01-01' });
  });

  it('names every person the files name, checking every file, not the first', async () => {
    const studyUid = newUid();
    const named = (patientName: string, birthDate: string) =>
      sampleCopy('CT_small.dcm', { patientName, birthDate, studyUid });
    const uploads = await uploadAll([
      await named('Doe^Jane', '19800402'),
      await named('Doe^Jane', '19800402'),
      await named('Smith^John', '19650101'),
      await named('Roe^Richard', '19500505'),
      await named('Poe^Edgar', '19090119'),
    ]);
    const refused = await fileStudy(people.physician.token, { patient: people.patient.id, uploads });
    expect(refused.statusCode).toBe(409);
    expect(patientMismatchSchema.parse(refused.json()).found).toEqual([
      { name: 'Doe^Jane', birth_date: '1980-04-02', files: 2 },
      { name: 'Smith^John', birth_date: '1965-01-01', files: 1 },
      { name: 'Roe^Richard', birth_date: '1950-05-05', files: 1 },
      { name: 'Poe^Edgar', birth_date: '1909-01-19', files: 1 },
    ]);
  });

  it("files another patient's UIDs as an independent copy: the first filer neither blocks nor is revealed", async () => {
    // A stranger (another physician, under their own patient) files a study first, with the UIDs
    // of the rightful files.
    const stranger = await createPhysician(t.database.db);
    const strangersPatient = await createPatient(t.database.db);
    await linkPatient(t.database.db, strangersPatient.id, stranger.id);
    const strangerToken = (await signIn(t.app, stranger.email)).token;
    const studyUid = newUid();
    const sopUid = newUid();
    const rightful = await sampleCopy('CT_small.dcm', { ...JANE, studyUid, sopUid });
    const squatted = await fileStudy(strangerToken, {
      patient: strangersPatient.id,
      uploads: await uploadAll([rightful], 'dicom', strangerToken),
      confirm_patient_mismatch: true,
    });
    expect(squatted.statusCode).toBe(201);

    // The rightful physician files the same UIDs: stored, answered as for any new study.
    const response = await fileStudy(people.physician.token, {
      patient: people.patient.id,
      uploads: await uploadAll([rightful]),
    });
    expect(response.statusCode).toBe(201);
    const filed = uploadStudyResponseSchema.parse(response.json());
    expect(filed).toEqual({
      success: true,
      items: [{ uid: expect.any(String), study_instance_uid: studyUid, instances: 1, skipped: [] }],
      skipped: [],
    });
    expect(filed.items[0]!.uid).not.toBe(uploadStudyResponseSchema.parse(squatted.json()).items[0]!.uid);
    const [row] = await t.database.db.select().from(studies).where(eq(studies.itemId, filed.items[0]!.uid));
    expect(row).toMatchObject({ instanceCount: 1, namespaceId: people.patient.id });
    const retrieve = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies/${studyUid}/series/${await sampleSeriesOf(filed.items[0]!.uid)}/instances/${sopUid}`,
      headers: { ...bearer(people.physician.token), accept: 'multipart/related; type="application/dicom"' },
    });
    expect(retrieve.statusCode).toBe(200);
    expect(retrieve.rawPayload.includes(rightful)).toBe(true);

    // Each copy stays its owner's: the stranger's is still theirs alone, the patient sees only theirs.
    const mine = (await listOf(people.patient.id, people.patient.token)).filter(
      (item) => item.study?.study_instance_uid === studyUid,
    );
    expect(mine.map((item) => item.uid)).toEqual([filed.items[0]!.uid]);
  });

  it('reads a CD folder from a ZIP: DICOMDIR left out, other files skipped and counted, bad names refused', async () => {
    const studyUid = newUid();
    const zip = buildZip([
      { name: 'DICOMDIR', data: readDicomSample('dicomdirtests/DICOMDIR') },
      {
        name: 'DICOM/ST1/IM1',
        data: await sampleCopy('CT_small.dcm', { ...JANE, studyUid }),
        method: 'deflate',
      },
      {
        name: 'DICOM/ST1/IM2',
        data: await sampleCopy('MR_small.dcm', { ...JANE, studyUid, seriesNumber: 2 }),
        method: 'deflate',
      },
      { name: 'AUTORUN.INF', data: '[autorun]\nopen=viewer.exe\n' },
      { name: 'DICOM/BROKEN', data: readDicomSample('MR_truncated.dcm') },
      { name: '../escape.dcm', data: await sampleCopy('CT_small.dcm', JANE) },
    ]);
    const response = await uploadAndFile(zip, 'dicom-zip', 'cd.zip');
    expect(response.statusCode).toBe(201);
    const filed = uploadStudyResponseSchema.parse(response.json());
    expect(filed.items).toEqual([
      expect.objectContaining({ study_instance_uid: studyUid, instances: 2, skipped: [] }),
    ]);
    expect(filed.skipped).toEqual(
      expect.arrayContaining([
        { name: 'cd.zip/AUTORUN.INF', reason: STUDY_MESSAGES.notDicom },
        { name: 'cd.zip/DICOM/BROKEN', reason: STUDY_MESSAGES.unreadable },
        expect.objectContaining({ name: 'cd.zip/../escape.dcm' }),
      ]),
    );
    expect(filed.skipped).toHaveLength(3);
  });

  it('reads a folder sent as one bundle: each file by its path, the ones that are not DICOM reported', async () => {
    const studyUid = newUid();
    const bundle = dicomBundle([
      { path: 'CD/DICOMDIR', bytes: readDicomSample('dicomdirtests/DICOMDIR') },
      { path: 'CD/DICOM/IM 1', bytes: await sampleCopy('CT_small.dcm', { ...JANE, studyUid }) },
      {
        path: 'CD/DICOM/IM 2',
        bytes: await sampleCopy('MR_small.dcm', { ...JANE, studyUid, seriesNumber: 2 }),
      },
      { path: 'CD/DICOM/BROKEN', bytes: readDicomSample('MR_truncated.dcm') },
      // A name with a NUL byte is no name: the file is reported by its place.
      { path: 'CD/\u0000AUTORUN', bytes: Buffer.from('[autorun]') },
    ]);
    const created = await createUpload(t.app, people.physician.token, {
      size: bundle.length,
      purpose: 'dicom-bundle',
      filename: '4 DICOM files',
      body: bundle,
    });
    expect(created.statusCode).toBe(201);
    // Its files are read as soon as it has arrived, ahead of the filing, which takes them over.
    await expect.poll(readAhead).toHaveLength(1);
    const response = await fileStudy(people.physician.token, {
      patient: people.patient.id,
      uploads: [created.headers.location as string],
    });
    expect(response.statusCode).toBe(201);
    expect(await readAhead()).toEqual([]);
    const filed = uploadStudyResponseSchema.parse(response.json());
    expect(filed.items).toEqual([expect.objectContaining({ study_instance_uid: studyUid, instances: 2 })]);
    expect(filed.skipped).toEqual([
      { name: 'CD/DICOM/BROKEN', reason: STUDY_MESSAGES.unreadable },
      { name: 'file 5', reason: STUDY_MESSAGES.notDicom },
    ]);
  });

  it('never hands the files read ahead of a bundle to anyone but the upload’s owner', async () => {
    const studyUid = newUid();
    const url = await uploadOneFileBundle(studyUid);
    const theirs = await createPatient(t.database.db);
    await linkPatient(t.database.db, theirs.id, people.otherPhysician.id);
    const stolen = await fileStudy(people.otherPhysician.token, { patient: theirs.id, uploads: [url] });
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json()).toEqual({ errors: [{ msg: UPLOAD_NOT_FOUND, path: 'uploads' }] });
    // Still there for its owner, who files it from what was read ahead.
    expect(await readAhead()).toHaveLength(1);
    const filed = await fileStudy(people.physician.token, { patient: people.patient.id, uploads: [url] });
    expect(filed.statusCode).toBe(201);
    expect(uploadStudyResponseSchema.parse(filed.json()).items).toEqual([
      expect.objectContaining({ study_instance_uid: studyUid, instances: 1 }),
    ]);
    expect(await readAhead()).toEqual([]);
  });

  it('drops the files read ahead of a bundle whose upload its owner ends before filing it', async () => {
    const url = await uploadOneFileBundle(newUid());
    expect((await tusRequest(t.app, 'DELETE', url, people.physician.token)).statusCode).toBe(204);
    await expect.poll(readAhead).toEqual([]);
  });

  it('refuses a bundle that does not start as one at the upload, and reports one cut short', async () => {
    const notBundle = await sampleCopy('CT_small.dcm', JANE);
    const refused = await createUpload(t.app, people.physician.token, {
      size: notBundle.length,
      purpose: 'dicom-bundle',
      body: notBundle,
    });
    expect(refused.statusCode).toBe(415);
    expect(refused.body).toContain(NOT_A_BUNDLE);

    const whole = dicomBundle([{ path: 'IM1', bytes: await sampleCopy('CT_small.dcm', JANE) }]);
    const cut = whole.subarray(0, whole.length - 40);
    const response = await uploadAndFile(cut, 'dicom-bundle', '1 DICOM file');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: [{ msg: STUDY_MESSAGES.noDicom, path: 'uploads' }] });
  });

  it('answers 400 when nothing in the uploads is DICOM, and files nothing', async () => {
    const zip = buildZip([{ name: 'readme.txt', data: 'no images here' }]);
    const response = await uploadAndFile(zip, 'dicom-zip', 'cd.zip');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: [{ msg: STUDY_MESSAGES.noDicom, path: 'uploads' }] });
  });

  it('answers 400 with the reason a ZIP was refused when that is why nothing was filed', async () => {
    const whole = buildZip([
      { name: 'DICOM/IM1', data: await sampleCopy('CT_small.dcm', JANE), method: 'deflate' },
    ]);
    // Cut short: the central directory is gone, so not one of its files can be read.
    const cut = whole.subarray(0, whole.length - 30);
    const response = await uploadAndFile(cut, 'dicom-zip', 'cd.zip');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [{ msg: 'The ZIP file could not be read.', path: 'uploads' }],
    });
  });

  it('answers 400 with the reason a ZIP would not give up its only file', async () => {
    const zip = buildZip([
      { name: 'DICOM/IM1', data: await sampleCopy('CT_small.dcm', JANE), isEncrypted: true },
    ]);
    const response = await uploadAndFile(zip, 'dicom-zip', 'cd.zip');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [{ msg: 'cd.zip/DICOM/IM1: Encrypted files cannot be read.', path: 'uploads' }],
    });
  });

  it('refuses at the upload a file that is not DICOM, and a ZIP that is not a ZIP', async () => {
    const notDicom = Buffer.alloc(400, 1);
    const asDicom = await createUpload(t.app, people.physician.token, {
      size: notDicom.length,
      purpose: 'dicom',
      body: notDicom,
    });
    expect(asDicom.statusCode).toBe(415);
    expect(asDicom.body).toContain('The file is not a DICOM file.');
    const asZip = await createUpload(t.app, people.physician.token, {
      size: notDicom.length,
      purpose: 'dicom-zip',
      body: notDicom,
    });
    expect(asZip.statusCode).toBe(415);
  });

  it('lets only the caring physician file, never a patient, and only with their own finished uploads', async () => {
    const uploads = await uploadAll([await sampleCopy('CT_small.dcm', JANE)]);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/user/upload-study',
      payload: { patient: people.patient.id, uploads },
    });
    expect(anonymous.statusCode).toBe(401);
    const patientUpload = await createUpload(t.app, people.patient.token, { size: 10, purpose: 'dicom' });
    expect(patientUpload.statusCode).toBe(403);
    expect((await fileStudy(people.patient.token, { patient: people.patient.id, uploads })).statusCode).toBe(
      403,
    );
    // Another physician: the patient is not theirs (404), and the uploads are not theirs either.
    expect(
      (await fileStudy(people.otherPhysician.token, { patient: people.patient.id, uploads })).statusCode,
    ).toBe(404);
    const unknown = await fileStudy(people.physician.token, {
      patient: people.patient.id,
      uploads: ['/api/uploads/00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(400);
    // The other patient does not see the first patient's studies.
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/user/${people.patient.id}/images`,
      headers: bearer(people.otherPatient.token),
    });
    expect(listed.statusCode).toBe(404);
  });
});
