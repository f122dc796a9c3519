import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { and, eq } from 'drizzle-orm';
import {
  dicomJsonListSchema,
  firstValue,
  uploadStudyResponseSchema,
  type DicomJsonDataset,
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
import { uploadFile } from '../../../test/uploads.js';
import { partsOf } from '../../../test/multipart.js';
import { readDicomInstance } from '../dicom/dicom-instance.js';
import { readFrames } from '../dicom/frame-data.js';
import { auditLog } from '../../db/schema/audit.js';
import { linkPatient } from '../patients/patients.repository.js';

let t: TestApp;
type Person = { id: string; token: string };
const people = {} as Record<
  'physician' | 'otherPhysician' | 'patient' | 'otherPatient' | 'radiologist',
  Person
>;
/** The patient's CT study (two series) and the other patient's MR study. */
const uids = { ct: newUid(), ctSeries: newUid(), scout: newUid(), mr: newUid(), firstSop: newUid() };
let ctItem = '';
/** The bytes of the first CT instance as uploaded. */
let firstCtFile: Buffer;

async function file(token: string, patient: string, files: Buffer[]) {
  const uploads: string[] = [];
  for (const bytes of files) {
    uploads.push(await uploadFile(t.app, token, bytes, 'dicom'));
  }
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/upload-study',
    headers: bearer(token),
    payload: { patient, uploads, confirm_patient_mismatch: true },
  });
  expect(response.statusCode).toBe(201);
  return uploadStudyResponseSchema.parse(response.json()).items[0]!.uid;
}

beforeAll(async () => {
  t = await createTestApp({}, { jobPollingSeconds: 0.5 });
  const db = t.database.db;
  const accounts = {
    physician: await createPhysician(db),
    otherPhysician: await createPhysician(db),
    patient: await createPatient(db),
    otherPatient: await createPatient(db),
    radiologist: await createRadiologist(db),
  };
  for (const [name, user] of Object.entries(accounts)) {
    people[name as keyof typeof people] = { id: user.id, token: (await signIn(t.app, user.email)).token };
  }
  await linkPatient(db, accounts.patient.id, accounts.physician.id);
  await linkPatient(db, accounts.otherPatient.id, accounts.otherPhysician.id);
  const ct = { studyUid: uids.ct, patientName: 'Doe^Jane', birthDate: '19800402' };
  firstCtFile = await sampleCopy('CT_small.dcm', {
    ...ct,
    seriesUid: uids.ctSeries,
    seriesNumber: 2,
    instanceNumber: 1,
    sopUid: uids.firstSop,
  });
  ctItem = await file(people.physician.token, people.patient.id, [
    firstCtFile,
    await sampleCopy('CT_small.dcm', { ...ct, seriesUid: uids.ctSeries, seriesNumber: 2, instanceNumber: 2 }),
    await sampleCopy('CT_small.dcm', { ...ct, seriesUid: uids.ctSeries, seriesNumber: 2, instanceNumber: 3 }),
    await sampleCopy('MR_small.dcm', { ...ct, seriesUid: uids.scout, seriesNumber: 1, instanceNumber: 1 }),
  ]);
  await file(people.otherPhysician.token, people.otherPatient.id, [
    await sampleCopy('MR_small.dcm', {
      studyUid: uids.mr,
      patientName: 'Roe^Richard',
      birthDate: '19700101',
    }),
  ]);
});
afterAll(() => t.close());

async function qido(person: Person, url: string): Promise<DicomJsonDataset[]> {
  const response = await t.app.inject({ method: 'GET', url, headers: bearer(person.token) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toContain('application/dicom+json');
  return dicomJsonListSchema.parse(response.json());
}

const studyUids = (datasets: DicomJsonDataset[]) =>
  datasets.map((dataset) => firstValue(dataset, '0020000D'));

describe('QIDO-RS', () => {
  it('lists each caller only the studies they may read, with the study attributes', async () => {
    const [study] = await qido(people.patient, '/dicomweb/studies');
    expect(study).toMatchObject({
      '0020000D': { vr: 'UI', Value: [uids.ct] },
      '00080061': { vr: 'CS', Value: ['CT', 'MR'] },
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Doe^Jane' }] },
      '00100030': { vr: 'DA', Value: ['19800402'] },
      '00201206': { vr: 'IS', Value: [2] },
      '00201208': { vr: 'IS', Value: [4] },
    });
    expect(firstValue(study!, '00081190')).toMatch(new RegExp(`/dicomweb/studies/${uids.ct}$`));
    expect(studyUids(await qido(people.physician, '/dicomweb/studies'))).toEqual([uids.ct]);
    expect(studyUids(await qido(people.otherPatient, '/dicomweb/studies'))).toEqual([uids.mr]);
    expect(studyUids(await qido(people.otherPhysician, '/dicomweb/studies'))).toEqual([uids.mr]);
    // A radiologist sees nothing until the patient has paid them for this study.
    expect(await qido(people.radiologist, '/dicomweb/studies')).toEqual([]);
  });

  it('matches exactly, by wildcard on names, by date range and modality, and pages', async () => {
    const physician = people.physician;
    expect(studyUids(await qido(physician, `/dicomweb/studies?StudyInstanceUID=${uids.ct}`))).toEqual([
      uids.ct,
    ]);
    expect(studyUids(await qido(physician, `/dicomweb/studies?StudyInstanceUID=${uids.mr}`))).toEqual([]);
    expect(studyUids(await qido(physician, '/dicomweb/studies?PatientName=doe*'))).toEqual([uids.ct]);
    expect(studyUids(await qido(physician, '/dicomweb/studies?00100010=D?E^JANE'))).toEqual([uids.ct]);
    expect(await qido(physician, '/dicomweb/studies?PatientName=Roe*')).toEqual([]);
    const [study] = await qido(physician, '/dicomweb/studies');
    const date = firstValue(study!, '00080020');
    expect(studyUids(await qido(physician, `/dicomweb/studies?StudyDate=${date}-`))).toEqual([uids.ct]);
    expect(await qido(physician, `/dicomweb/studies?StudyDate=-${Number(date) - 1}`)).toEqual([]);
    expect(studyUids(await qido(physician, '/dicomweb/studies?ModalitiesInStudy=MR'))).toEqual([uids.ct]);
    expect(await qido(physician, '/dicomweb/studies?ModalitiesInStudy=US')).toEqual([]);
    expect(await qido(physician, '/dicomweb/studies?offset=1')).toEqual([]);

    const bad = await t.app.inject({
      method: 'GET',
      url: '/dicomweb/studies?StudyDate=yesterday',
      headers: bearer(physician.token),
    });
    expect(bad.statusCode).toBe(400);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/dicomweb/studies?Foo=1',
      headers: bearer(physician.token),
    });
    expect(unknown.headers.warning).toContain('Foo');
    const hostile = await t.app.inject({
      method: 'GET',
      url: '/dicomweb/studies?Foo%0D%0ASet-Cookie:%20x=1=1',
      headers: bearer(physician.token),
    });
    expect(hostile.statusCode).toBe(200);
    expect(hostile.headers['set-cookie']).toBeUndefined();
  });

  it('lists series and instances in order, and includefield adds attributes from the files', async () => {
    const series = await qido(people.patient, `/dicomweb/studies/${uids.ct}/series`);
    expect(
      series.map((entry) => [
        firstValue(entry, '00200011'),
        firstValue(entry, '00080060'),
        firstValue(entry, '00201209'),
      ]),
    ).toEqual([
      ['1', 'MR', '1'],
      ['2', 'CT', '3'],
    ]);
    const instances = await qido(
      people.patient,
      `/dicomweb/studies/${uids.ct}/series/${uids.ctSeries}/instances?limit=2`,
    );
    expect(instances.map((entry) => firstValue(entry, '00200013'))).toEqual(['1', '2']);
    expect(instances[0]).toMatchObject({
      '00080018': { Value: [uids.firstSop] },
      '00280010': { Value: [128] },
    });
    expect(await qido(people.patient, `/dicomweb/studies/${uids.ct}/instances`)).toHaveLength(4);

    const [withField] = await qido(
      people.patient,
      `/dicomweb/studies?includefield=00180050&includefield=PatientSex`,
    );
    expect(withField!['00180050']).toMatchObject({ vr: 'DS' });
    // Another patient's study is not there to be listed, whatever the path says.
    expect(await qido(people.patient, `/dicomweb/studies/${uids.mr}/series`)).toEqual([]);
  });

  it('refuses callers without a token on every route', async () => {
    const instance = `/dicomweb/studies/${uids.ct}/series/${uids.ctSeries}/instances/${uids.firstSop}`;
    for (const url of [
      '/dicomweb/studies',
      `/dicomweb/studies/${uids.ct}/series`,
      `/dicomweb/studies/${uids.ct}/instances`,
      `/dicomweb/studies/${uids.ct}/metadata`,
      `/dicomweb/studies/${uids.ct}`,
      `/dicomweb/studies/${uids.ct}/thumbnail`,
      instance,
      `${instance}/metadata`,
      `${instance}/frames/1`,
      `${instance}/rendered`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    const stow = await t.app.inject({
      method: 'POST',
      url: '/dicomweb/studies',
      headers: { 'content-type': 'multipart/related; type="application/dicom"; boundary=x' },
      payload: '--x--',
    });
    expect(stow.statusCode).toBe(401);
  });
});

describe('WADO-RS', () => {
  it("serves every instance's metadata from the database, with its transfer syntax, to readers only", async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies/${uids.ct}/metadata`,
      headers: bearer(people.patient.token),
    });
    expect(response.statusCode).toBe(200);
    const metadata = dicomJsonListSchema.parse(response.json());
    expect(metadata).toHaveLength(4);
    expect(metadata[0]).toMatchObject({
      '00080018': { Value: [expect.any(String)] },
      '00083002': { vr: 'UI', Value: ['1.2.840.10008.1.2.1'] },
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Doe^Jane' }] },
    });
    expect(metadata[0]!['7FE00010']).toBeUndefined();
    const series = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies/${uids.ct}/series/${uids.ctSeries}/metadata`,
      headers: bearer(people.physician.token),
    });
    expect(dicomJsonListSchema.parse(series.json()).map((entry) => firstValue(entry, '00200013'))).toEqual([
      '1',
      '2',
      '3',
    ]);

    for (const person of [people.otherPatient, people.otherPhysician, people.radiologist]) {
      const refused = await t.app.inject({
        method: 'GET',
        url: `/dicomweb/studies/${uids.ct}/metadata`,
        headers: bearer(person.token),
      });
      expect(refused.statusCode).toBe(404);
    }
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, people.patient.id), eq(auditLog.recordId, ctItem)));
    expect(rows.length).toBeGreaterThan(0);
  });

  it('renders an instance as JPEG or PNG, and gives the series thumbnail', async () => {
    const base = `/dicomweb/studies/${uids.ct}/series/${uids.ctSeries}/instances/${uids.firstSop}`;
    const jpeg = await t.app.inject({
      method: 'GET',
      url: `${base}/rendered`,
      headers: { ...bearer(people.patient.token), accept: 'image/jpeg' },
    });
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(jpeg.rawPayload).metadata()).toMatchObject({
      format: 'jpeg',
      width: 128,
      height: 128,
    });
    const png = await t.app.inject({
      method: 'GET',
      url: `${base}/frames/1/rendered`,
      headers: { ...bearer(people.patient.token), accept: 'image/png' },
    });
    expect(await sharp(png.rawPayload).metadata()).toMatchObject({ format: 'png', width: 128 });
    const noFrame = await t.app.inject({
      method: 'GET',
      url: `${base}/frames/2/rendered`,
      headers: bearer(people.patient.token),
    });
    expect(noFrame.statusCode).toBe(404);
    const notAccepted = await t.app.inject({
      method: 'GET',
      url: `${base}/rendered`,
      headers: { ...bearer(people.patient.token), accept: 'application/pdf' },
    });
    expect(notAccepted.statusCode).toBe(406);
    const stranger = await t.app.inject({
      method: 'GET',
      url: `${base}/rendered`,
      headers: bearer(people.otherPatient.token),
    });
    expect(stranger.statusCode).toBe(404);

    // The thumbnails are drawn in the background with the study's preview.
    let thumbnail = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies/${uids.ct}/series/${uids.ctSeries}/thumbnail`,
      headers: bearer(people.patient.token),
    });
    for (let attempt = 0; attempt < 100 && thumbnail.statusCode === 404; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      thumbnail = await t.app.inject({
        method: 'GET',
        url: `/dicomweb/studies/${uids.ct}/series/${uids.ctSeries}/thumbnail`,
        headers: bearer(people.patient.token),
      });
    }
    expect(thumbnail.statusCode).toBe(200);
    expect(await sharp(thumbnail.rawPayload).metadata()).toMatchObject({
      format: 'jpeg',
      width: 128,
      height: 128,
    });
  });

  it('opens a study to a radiologist once the patient has paid them for it', async () => {
    const invoice = await t.app.inject({
      method: 'POST',
      url: `/api/payment/${people.radiologist.id}/invoice`,
      headers: bearer(people.patient.token),
      payload: { image: ctItem },
    });
    expect(invoice.statusCode).toBe(201);
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/payment/sandbox/${invoice.json().invoice.uid}/pay`,
      headers: bearer(people.patient.token),
    });
    expect(paid.statusCode).toBe(200);
    expect(studyUids(await qido(people.radiologist, '/dicomweb/studies'))).toEqual([uids.ct]);
    const metadata = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies/${uids.ct}/metadata`,
      headers: bearer(people.radiologist.token),
    });
    expect(metadata.statusCode).toBe(200);
  });
});

describe('WADO-RS retrieval', () => {
  const instanceUrl = () => `/dicomweb/studies/${uids.ct}/series/${uids.ctSeries}/instances/${uids.firstSop}`;

  it('serves a bulk value its metadata refers to, as stored, to those who may read it', async () => {
    const studyUid = newUid();
    const ecg = await sampleCopy('waveform_ecg.dcm', {
      studyUid,
      patientName: 'Doe^Jane',
      birthDate: '19800402',
    });
    await file(people.physician.token, people.patient.id, [ecg]);
    const metadata = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies/${studyUid}/metadata`,
      headers: bearer(people.patient.token),
    });
    const [instance] = dicomJsonListSchema.parse(metadata.json());
    const waveform = instance!['54000100']!.Value![0] as DicomJsonDataset;
    const uri = waveform['54001010']!.BulkDataURI!;

    const bulk = await t.app.inject({ method: 'GET', url: uri, headers: bearer(people.patient.token) });
    expect(bulk.statusCode).toBe(200);
    expect(bulk.headers['content-type']).toMatch(/^multipart\/related; type="?application\/octet-stream"?/);
    const [part] = await partsOf(bulk);
    // dcmdump: the first item's WaveformData is OW of 240 000 bytes, little endian as the file is.
    expect(part!.body.length).toBe(240_000);
    expect(ecg.includes(part!.body)).toBe(true);

    for (const person of [people.otherPatient, people.otherPhysician]) {
      const refused = await t.app.inject({ method: 'GET', url: uri, headers: bearer(person.token) });
      expect(refused.statusCode).toBe(404);
    }
    const wrongType = await t.app.inject({
      method: 'GET',
      url: uri,
      headers: { ...bearer(people.patient.token), accept: 'application/dicom+json' },
    });
    expect(wrongType.statusCode).toBe(406);
  });

  it('sends instances byte for byte as stored, as multipart/related application/dicom', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: instanceUrl(),
      headers: bearer(people.physician.token),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(
      /^multipart\/related; type="?application\/dicom"?; boundary=/,
    );
    const [part] = await partsOf(response);
    expect(part!.contentType).toContain('application/dicom');
    expect(part!.body.equals(firstCtFile)).toBe(true);

    const study = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies/${uids.ct}`,
      headers: bearer(people.patient.token),
    });
    expect(await partsOf(study)).toHaveLength(4);
    const refused = await t.app.inject({
      method: 'GET',
      url: instanceUrl(),
      headers: {
        ...bearer(people.patient.token),
        accept: 'multipart/related; type="application/dicom"; transfer-syntax=1.2.840.10008.1.2.4.80',
      },
    });
    expect(refused.statusCode).toBe(406);
    for (const person of [people.otherPatient, people.otherPhysician]) {
      expect(
        (await t.app.inject({ method: 'GET', url: instanceUrl(), headers: bearer(person.token) })).statusCode,
      ).toBe(404);
    }
    const downloads = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, people.physician.id), eq(auditLog.recordId, `studies/${ctItem}`)));
    expect(downloads[0]).toMatchObject({ action: 'download', patientId: people.patient.id });
  });

  it('sends the frames asked for, in the order asked, the same whether read by range or from the whole file', async () => {
    const accept = 'multipart/related; type="application/octet-stream"; transfer-syntax=*';
    const framesOf = async (sample: string) => {
      const bytes = await sampleCopy(sample, { patientName: 'Doe^Jane', birthDate: '19800402' });
      const study = readDicomInstance(bytes).studyInstanceUid;
      await file(people.physician.token, people.patient.id, [bytes]);
      const [instance] = await qido(people.patient, `/dicomweb/studies/${study}/instances`);
      const url = `/dicomweb/studies/${study}/series/${firstValue(instance!, '0020000E')}/instances/${firstValue(instance!, '00080018')}`;
      const response = await t.app.inject({
        method: 'GET',
        url: `${url}/frames/3,1,3`,
        headers: { ...bearer(people.patient.token), accept },
      });
      expect(response.statusCode, response.body).toBe(200);
      const beyond = await t.app.inject({
        method: 'GET',
        url: `${url}/frames/16`,
        headers: { ...bearer(people.patient.token), accept },
      });
      expect(beyond.statusCode).toBe(404);
      return { bytes, parts: (await partsOf(response)).map((part) => part.body) };
    };
    // rtdose: fifteen 10 × 10 frames of 32 bits, implicit little endian: read by byte range.
    const little = await framesOf('rtdose.dcm');
    const expected = await readFrames(little.bytes, [3, 1, 3], { decompress: false, maxPixels: 1e6 });
    expect(little.parts.map((part) => part.toString('hex'))).toEqual(
      expected.frames.map((frame) => Buffer.from(frame).toString('hex')),
    );
    // The same doses big endian: read from the whole file and swapped, giving the same bytes.
    const big = await framesOf('rtdose_expb.dcm');
    expect(big.parts).toEqual(little.parts);
  });

  it('sends frames as little-endian pixels, and refuses a frame that does not exist', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${instanceUrl()}/frames/1`,
      headers: {
        ...bearer(people.patient.token),
        accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=*',
      },
    });
    expect(response.statusCode).toBe(200);
    const [frame] = await partsOf(response);
    expect(frame!.contentType).toBe('application/octet-stream; transfer-syntax=1.2.840.10008.1.2.1');
    // CT_small: 128 × 128 pixels of 16 bits, stored uncompressed at the end of the file.
    expect(frame!.body.length).toBe(128 * 128 * 2);
    expect(frame!.body.equals(firstCtFile.subarray(firstCtFile.length - 128 * 128 * 2))).toBe(true);
    const missing = await t.app.inject({
      method: 'GET',
      url: `${instanceUrl()}/frames/2`,
      headers: bearer(people.patient.token),
    });
    expect(missing.statusCode).toBe(404);
  });
});
