import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageResponseSchema, type DicomJsonDataset } from '@ra/shared';
import type { TestApp } from '../../../test/test-app.js';
import { bearer } from '../../../test/factories.js';
import {
  annotationCalls,
  lengthOnStudy,
  startAnnotatedArchive,
  type AnnotatedArchive,
} from '../../../test/annotated-archive.js';
import { isOrthancInstalled, startOrthanc, type OrthancServer } from '../../../test/orthanc.js';
import { soon } from '../../../test/soon.js';
import { filesOfMultipart, measurementsIn, readDocument } from '../../../test/structured-reports.js';
import { reportSeriesOf } from './reports.service.js';

/*
 * The SR travels to another archive: Orthanc, with our server as its DICOMweb peer (signed in as
 * the patient's physician), pulls the radiologist's SR series by WADO-RS, and the file it stored
 * holds the same measurement. Skipped only where Orthanc is not installed (CI installs it).
 */

let t: TestApp;
let archive: AnnotatedArchive;
let calls: ReturnType<typeof annotationCalls>;
let orthanc: OrthancServer | undefined;

beforeAll(async () => {
  if (!isOrthancInstalled()) {
    return;
  }
  ({ t, archive, calls } = await startAnnotatedArchive());
  const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  orthanc = await startOrthanc({
    archive: {
      url: `${base}/dicomweb`,
      headers: { Authorization: `Bearer ${archive.people.physician.token}` },
    },
  });
});
afterAll(async () => {
  // Orthanc is a process of its own: it must not outlive a failed test.
  await orthanc?.stop();
  await t?.close();
});

async function orthancPost(route: string, body: string, type = 'application/json') {
  const response = await fetch(`${orthanc!.base}${route}`, {
    method: 'POST',
    headers: { 'content-type': type },
    body,
  });
  const text = await response.text();
  expect(response.status, `${route}: ${text}\n${orthanc!.recentLog()}`).toBe(200);
  return JSON.parse(text) as unknown;
}

describe.skipIf(!isOrthancInstalled())("Orthanc pulling a radiologist's SR from us", () => {
  it('stores the SR it retrieved by WADO-RS, with the same measurement', async () => {
    const { people, items, uids } = archive;
    const item = await t.app.inject({
      method: 'GET',
      url: `/api/image/${items.study}`,
      headers: bearer(people.physician.token),
    });
    const studyUid = imageResponseSchema.parse(item.json()).image.study!.study_instance_uid;
    const { sr } = reportSeriesOf(items.study, people.radiologist.id);
    await calls.create(people.radiologist, items.study, lengthOnStudy(uids));
    const noted = await calls.patchNote(people.radiologist, items.study, { note: 'Nodule, 8 mm.' });
    expect(noted.statusCode, noted.body).toBe(200);

    // Our own answer first: the SR instance and its measurement, once the background job has filed it.
    let srSop = '';
    const filed = await soon(async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/dicomweb/studies/${studyUid}/series/${sr}/instances`,
        headers: bearer(people.physician.token),
      });
      const found = response.statusCode === 200 ? response.json<DicomJsonDataset[]>() : [];
      srSop = (found[0]?.['00080018']?.Value?.[0] as string | undefined) ?? '';
      return found.length === 1;
    }, 30_000);
    expect(filed).toBe(true);

    const pulled = await orthancPost(
      '/dicom-web/servers/archive/retrieve',
      JSON.stringify({ Resources: [{ Study: studyUid, Series: sr }] }),
    );
    expect(pulled).toMatchObject({ ReceivedInstancesCount: '1' });
    const found = (await orthancPost('/tools/lookup', srSop, 'text/plain')) as { ID: string; Type: string }[];
    const instance = found.find((entry) => entry.Type === 'Instance');
    expect(instance, `Orthanc has no instance ${srSop}`).toBeDefined();
    const stored = Buffer.from(
      await (await fetch(`${orthanc!.base}/instances/${instance!.ID}/file`)).arrayBuffer(),
    );

    const theirs = readDocument(stored);
    expect(theirs.SOPClassUID).toBe('1.2.840.10008.5.1.4.1.1.88.22');
    expect(theirs.SOPInstanceUID).toBe(srSop);
    // Our copy, as WADO-RS gives it: the same measurements.
    const ours = await t.app.inject({
      method: 'GET',
      url: `/dicomweb/studies/${studyUid}/series/${sr}/instances/${srSop}`,
      headers: { ...bearer(people.physician.token), accept: 'multipart/related; type="application/dicom"' },
    });
    expect(ours.statusCode).toBe(200);
    const [ourFile] = await filesOfMultipart(ours.rawPayload, String(ours.headers['content-type']));
    expect(measurementsIn(theirs)).toEqual(measurementsIn(readDocument(ourFile!)));
    const [measured] = measurementsIn(theirs);
    expect(measured).toMatchObject({ concept: 'Length', unit: 'mm', sopInstanceUid: uids.first });
    // The same value as our copy holds (PixelSpacing of CT_small: a length of 20 × 20.5 pixels).
    const spacing = await pixelSpacing(studyUid);
    expect(measured!.value).toBeCloseTo(Math.hypot(20 * spacing[1], 20.5 * spacing[0]), 6);
  });
});

async function pixelSpacing(studyUid: string): Promise<[number, number]> {
  const { people, uids } = archive;
  const response = await t.app.inject({
    method: 'GET',
    url: `/dicomweb/studies/${studyUid}/series/${uids.series}/instances/${uids.first}/metadata`,
    headers: bearer(people.physician.token),
  });
  return response.json<DicomJsonDataset[]>()[0]!['00280030']!.Value as [number, number];
}
