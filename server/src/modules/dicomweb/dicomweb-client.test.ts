import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from 'dicomweb-client';
import { uploadStudyResponseSchema } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { newUid, sampleCopy } from '../../../test/dicom-files.js';
import { uploadFile } from '../../../test/uploads.js';
import { linkPatient } from '../patients/patients.repository.js';

/**
 * Interoperability: the dicomweb-client package (the one OHIF and Cornerstone use), over real
 * HTTP, searches and retrieves what upload-study filed. In Node it needs an XMLHttpRequest.
 */
const require = createRequire(import.meta.url);
(globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest ??= require('xhr2');

type Dataset = Record<string, { Value?: unknown[] }>;
/** The calls used here; the package's own declarations mark every option as required. */
interface Client {
  searchForStudies(options?: { queryParams?: Record<string, string> }): Promise<Dataset[]>;
  searchForSeries(options: { studyInstanceUID: string }): Promise<Dataset[]>;
  searchForInstances(options: { studyInstanceUID: string; seriesInstanceUID: string }): Promise<Dataset[]>;
  retrieveStudyMetadata(options: { studyInstanceUID: string }): Promise<Dataset[]>;
  retrieveInstance(options: {
    studyInstanceUID: string;
    seriesInstanceUID: string;
    sopInstanceUID: string;
  }): Promise<ArrayBuffer>;
  retrieveInstanceFrames(options: {
    studyInstanceUID: string;
    seriesInstanceUID: string;
    sopInstanceUID: string;
    frameNumbers: number[];
  }): Promise<ArrayBuffer[]>;
}
const DicomwebClient = api.DICOMwebClient as unknown as new (options: {
  url: string;
  headers: Record<string, string>;
}) => Client;

let t: TestApp;
let client: Client;
let stranger: Client;
const uids = { study: newUid(), series: newUid(), sop: newUid() };
let file: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const physician = await createPhysician(db);
  const patient = await createPatient(db);
  const other = await createPatient(db);
  await linkPatient(db, patient.id, physician.id);
  const doctor = await signIn(t.app, physician.email);
  file = await sampleCopy('MR_small.dcm', { studyUid: uids.study, seriesUid: uids.series, sopUid: uids.sop });
  const upload = await uploadFile(t.app, doctor.token, file, 'dicom');
  const filed = await t.app.inject({
    method: 'POST',
    url: '/api/user/upload-study',
    headers: bearer(doctor.token),
    payload: { patient: patient.id, uploads: [upload], confirm_patient_mismatch: true },
  });
  uploadStudyResponseSchema.parse(filed.json());
  const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const url = `${address}/dicomweb`;
  client = new DicomwebClient({
    url,
    headers: { Authorization: `Bearer ${(await signIn(t.app, patient.email)).token}` },
  });
  stranger = new DicomwebClient({
    url,
    headers: { Authorization: `Bearer ${(await signIn(t.app, other.email)).token}` },
  });
});
afterAll(() => t.close());

describe('dicomweb-client against /dicomweb', () => {
  it('searches studies, series and instances', async () => {
    const studies = await client.searchForStudies({ queryParams: { PatientName: 'Compressed*' } });
    expect(studies.map((study) => study['0020000D']!.Value![0])).toEqual([uids.study]);
    const series = await client.searchForSeries({ studyInstanceUID: uids.study });
    expect(series).toHaveLength(1);
    const instances = await client.searchForInstances({
      studyInstanceUID: uids.study,
      seriesInstanceUID: uids.series,
    });
    expect(instances[0]!['00080018']!.Value![0]).toBe(uids.sop);
    expect(await stranger.searchForStudies()).toEqual([]);
  });

  it('retrieves metadata, the instance byte for byte, and its frame', async () => {
    const metadata = (await client.retrieveStudyMetadata({ studyInstanceUID: uids.study })) as Record<
      string,
      { Value?: unknown[] }
    >[];
    expect(metadata[0]!['00080018']!.Value).toEqual([uids.sop]);

    const instance = await client.retrieveInstance({
      studyInstanceUID: uids.study,
      seriesInstanceUID: uids.series,
      sopInstanceUID: uids.sop,
    });
    expect(Buffer.from(instance).equals(file)).toBe(true);

    const frames = await client.retrieveInstanceFrames({
      studyInstanceUID: uids.study,
      seriesInstanceUID: uids.series,
      sopInstanceUID: uids.sop,
      frameNumbers: [1],
    });
    // MR_small: 64 × 64 pixels of 16 bits, uncompressed at the end of the file.
    expect(Buffer.from(frames[0]!).equals(file.subarray(file.length - 64 * 64 * 2))).toBe(true);

    // The client logs every failed request; this one is expected.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(stranger.retrieveStudyMetadata({ studyInstanceUID: uids.study })).rejects.toMatchObject({
        status: 404,
      });
    } finally {
      quiet.mockRestore();
    }
  });
});
