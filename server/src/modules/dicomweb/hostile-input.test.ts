import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  dicomJsonDatasetSchema,
  dicomJsonListSchema,
  imagePageSchema,
  STUDY_MESSAGES,
  uploadStudyResponseSchema,
} from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { newUid } from '../../../test/dicom-files.js';
import { hostileFile } from '../../../test/hostile-dicom.js';
import { partsOf } from '../../../test/multipart.js';
import { stow } from '../../../test/stow.js';
import { uploadFile } from '../../../test/uploads.js';
import { linkPatient } from '../patients/patients.repository.js';

let t: TestApp;
const people = {} as Record<'physician' | 'patient' | 'stranger', { id: string; token: string }>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const physician = await createPhysician(db);
  const patient = await createPatient(db, { firstName: 'Jane', lastName: 'Doe', dob: '1980-04-02' });
  await linkPatient(db, patient.id, physician.id);
  people.physician = { id: physician.id, token: (await signIn(t.app, physician.email)).token };
  people.patient = { id: patient.id, token: (await signIn(t.app, patient.email)).token };
  const stranger = await createPhysician(db);
  people.stranger = { id: stranger.id, token: (await signIn(t.app, stranger.email)).token };
});
afterAll(() => t.close());

function get(url: string, token = people.physician.token, accept = 'application/dicom+json') {
  return t.app.inject({ method: 'GET', url, headers: { ...bearer(token), accept } });
}

/** The SOP Instance UIDs and failure reasons a STOW-RS answer lists. */
function outcome(body: unknown) {
  const dataset = dicomJsonDatasetSchema.parse(body);
  const items = (tag: string) => (dataset[tag]?.Value ?? []) as Record<string, { Value?: unknown[] }>[];
  return {
    stored: items('00081199').map((item) => item['00081155']?.Value?.[0]),
    failed: items('00081198').map((item) => ({
      sop: item['00081155']?.Value?.[0],
      reason: item['00081197']?.Value?.[0],
    })),
  };
}

describe('hostile files: each refused on its own, the rest filed (docs/api.md §14.2, §14.3)', () => {
  it('answers STOW-RS 202 listing each bad instance with its reason, and files the good ones retrievably', async () => {
    const studyUid = newUid();
    const good = hostileFile({ studyUid });
    const nul = hostileFile({ studyUid, elements: { '00081030': { vr: 'LO', value: 'Head\u0000CT' } } });
    const overflow = hostileFile({ studyUid, elements: { '00200013': { vr: 'IS', value: '99999999999' } } });
    const crlf = hostileFile({ studyUid, transferSyntax: '1.2.840.10008.1.2.1\r\n' });
    const frames = hostileFile({ studyUid, elements: { '00280008': { vr: 'IS', value: '3000000000' } } });
    const response = await stow(
      t.app,
      people.physician.token,
      [good.bytes, nul.bytes, overflow.bytes, crlf.bytes, frames.bytes],
      `?patient=${people.patient.id}`,
    );
    expect(response.statusCode).toBe(202);
    const { stored, failed } = outcome(response.json());
    expect(stored).toEqual([good.sopUid]);
    expect(failed).toEqual(
      expect.arrayContaining(
        [nul, overflow, crlf, frames].map((file) => ({ sop: file.sopUid, reason: 0xc000 })),
      ),
    );
    expect(failed).toHaveLength(4);

    // The study holds what was answered as stored, and all of it can be retrieved.
    const study = await get(
      `/dicomweb/studies/${studyUid}`,
      people.patient.token,
      'multipart/related; type="application/dicom"',
    );
    expect(study.statusCode).toBe(200);
    expect(study.rawPayload.includes(good.bytes)).toBe(true);
    const metadata = dicomJsonListSchema.parse((await get(`/dicomweb/studies/${studyUid}/metadata`)).json());
    expect(metadata.map((instance) => instance['00080018']?.Value?.[0])).toEqual([good.sopUid]);
  });

  it('files the good uploads of a batch and reports each bad one, losing none', async () => {
    const good = hostileFile();
    const nul = hostileFile({ elements: { '00100020': { vr: 'LO', value: 'ID\u00001' } } });
    const series = hostileFile({ elements: { '00200011': { vr: 'IS', value: '2147483648' } } });
    const uploads = [
      await uploadFile(t.app, people.physician.token, good.bytes, 'dicom'),
      await uploadFile(t.app, people.physician.token, nul.bytes, 'dicom'),
      await uploadFile(t.app, people.physician.token, series.bytes, 'dicom'),
    ];
    // Each file is parsed on a decode thread, within its time and memory bounds, not on this one
    // (by whichever instance the request reached).
    const parses = t.instances.map((instance) => vi.spyOn(instance.ctx.decoder, 'readInstance'));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/upload-study',
      headers: bearer(people.physician.token),
      payload: { patient: people.patient.id, uploads },
    });
    expect(parses.reduce((sum, parse) => sum + parse.mock.calls.length, 0)).toBe(3);
    parses.forEach((parse) => parse.mockRestore());
    expect(response.statusCode).toBe(201);
    const filed = uploadStudyResponseSchema.parse(response.json());
    expect(filed.items.map((item) => item.instances)).toEqual([1]);
    expect(filed.skipped.map((file) => file.reason).sort()).toEqual(
      [STUDY_MESSAGES.nulInText, STUDY_MESSAGES.numberOutOfRange].sort(),
    );
  });

  it('serves text values of many megabytes as bulk data, never inline in metadata or lists', async () => {
    const studyUid = newUid();
    const description = 'D'.repeat(20 * 1024 * 1024);
    const report = 'R'.repeat(10 * 1024 * 1024);
    const files = [0, 1, 2].map(() =>
      hostileFile({
        studyUid,
        elements: {
          '00081030': { vr: 'UT', value: description },
          '0040A160': { vr: 'UT', value: report },
        },
      }),
    );
    const response = await stow(
      t.app,
      people.physician.token,
      files.map((file) => file.bytes),
      `?patient=${people.patient.id}`,
    );
    expect(response.statusCode).toBe(200);

    const metadata = await get(`/dicomweb/studies/${studyUid}/metadata`, people.patient.token);
    expect(metadata.statusCode).toBe(200);
    expect(metadata.rawPayload.length).toBeLessThan(64 * 1024);
    const instances = dicomJsonListSchema.parse(metadata.json());
    expect(instances).toHaveLength(3);
    const reportUri = instances[0]!['0040A160']?.BulkDataURI;
    expect(instances[0]!['0040A160']?.Value).toBeUndefined();
    expect(reportUri).toMatch(new RegExp(`^/dicomweb/studies/${studyUid}/series/.+/bulkdata/0040A160$`));

    // The value is served whole to whoever may read the study, as bulk data (PS3.18 8.7.3.5).
    const bulk = await get(
      reportUri!,
      people.patient.token,
      'multipart/related; type="application/octet-stream"',
    );
    expect(bulk.statusCode).toBe(200);
    const [part] = await partsOf(bulk);
    expect(part!.body.toString('utf8')).toBe(report);
    // Without a session it is refused; to anyone else the same URI, and any malformed one, is not found.
    expect((await t.app.inject({ method: 'GET', url: reportUri! })).statusCode).toBe(401);
    expect((await get(reportUri!, people.stranger.token, '*/*')).statusCode).toBe(404);
    expect(
      (await get(reportUri!.replace(/0040A160$/, '0040a160'), people.patient.token, '*/*')).statusCode,
    ).toBe(404);
    expect(
      (await get(reportUri!.replace(/0040A160$/, '00091099'), people.patient.token, '*/*')).statusCode,
    ).toBe(404);

    const list = await t.app.inject({
      method: 'GET',
      url: `/api/user/${people.patient.id}/images`,
      headers: bearer(people.patient.token),
    });
    expect(list.rawPayload.length).toBeLessThan(64 * 1024);
    const item = imagePageSchema
      .parse(list.json())
      .images.find((image) => image.study?.study_instance_uid === studyUid);
    expect(item?.study?.study_description.length).toBeLessThanOrEqual(256);
  });
});

describe('bad query values and paths (docs/api.md §13.1, §13.2)', () => {
  it.each([
    ['/dicomweb/studies?StudyDate=20201340', 'StudyDate'],
    ['/dicomweb/studies?StudyDate=20200230-20200301', 'StudyDate'],
    ['/dicomweb/studies?StudyDate=-', 'StudyDate'],
    ['/dicomweb/studies/1.2.3/instances?InstanceNumber=99999999999', 'InstanceNumber'],
    ['/dicomweb/studies/1.2.3/series?SeriesNumber=12a', 'SeriesNumber'],
    ['/dicomweb/studies?StudyInstanceUID=1.2.abc', 'StudyInstanceUID'],
    ['/dicomweb/studies/*/metadata', 'StudyInstanceUID'],
    ['/dicomweb/studies/1.2.3/series/*/metadata', 'SeriesInstanceUID'],
    ['/dicomweb/studies/1.2,1.3/metadata', 'StudyInstanceUID'],
  ])('%s answers 400 naming %s', async (url, path) => {
    const response = await get(url);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: [{ msg: expect.any(String), path }] });
  });
});
