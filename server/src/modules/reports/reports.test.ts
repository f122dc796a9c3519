import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { imageResponseSchema, type DicomJsonDataset } from '@ra/shared';
import type { TestApp } from '../../../test/test-app.js';
import { bearer } from '../../../test/factories.js';
import {
  annotationCalls,
  lengthOnStudy,
  startAnnotatedArchive,
  type AnnotatedArchive,
  type Person,
} from '../../../test/annotated-archive.js';
import { soon } from '../../../test/soon.js';
import {
  contentItems,
  filesOfMultipart,
  measurementsIn,
  only,
  readDocument,
} from '../../../test/structured-reports.js';
import { reportSeriesOf } from './reports.service.js';

/*
 * A radiologist's analysis of a study travels with it: after PATCH /api/image/:uid the study holds
 * their SR (measurements, note) and KO (key images) series, which QIDO-RS and WADO-RS give to every
 * reader of the study, replaced when the analysis changes and removed when the note is emptied.
 */

let t: TestApp;
let archive: AnnotatedArchive;
let calls: ReturnType<typeof annotationCalls>;
let studyUid: string;
let series: { sr: string; ko: string };
/** The first instance's Pixel Spacing as stored: [between rows, between columns] in mm. */
let spacing: [number, number];

const ENHANCED_SR = '1.2.840.10008.5.1.4.1.1.88.22';
const KEY_OBJECT_SELECTION = '1.2.840.10008.5.1.4.1.1.88.59';
const DICOM = 'multipart/related; type="application/dicom"';
/** The background job runs within a poll or two of the note; filing reads the file on a decode thread. */
const JOB_WAIT_MS = 30_000;

beforeAll(async () => {
  ({ t, archive, calls } = await startAnnotatedArchive());
  const { people, items, uids } = archive;
  const image = await t.app.inject({
    method: 'GET',
    url: `/api/image/${items.study}`,
    headers: bearer(people.patient.token),
  });
  studyUid = imageResponseSchema.parse(image.json()).image.study!.study_instance_uid;
  series = reportSeriesOf(items.study, people.radiologist.id);
  const metadata = await t.app.inject({
    method: 'GET',
    url: `/dicomweb/studies/${studyUid}/series/${uids.series}/instances/${uids.first}/metadata`,
    headers: bearer(people.physician.token),
  });
  const [dataset] = metadata.json<DicomJsonDataset[]>();
  spacing = dataset!['00280030']!.Value as [number, number];
});
afterAll(() => t.close());

async function seriesSeenBy(who: Person): Promise<{ uid: string; modality: string }[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/dicomweb/studies/${studyUid}/series`,
    headers: bearer(who.token),
  });
  if (response.statusCode !== 200) {
    return [];
  }
  return response.json<DicomJsonDataset[]>().map((dataset) => ({
    uid: String(dataset['0020000E']?.Value?.[0]),
    modality: String(dataset['00080060']?.Value?.[0]),
  }));
}

/** The instances of one series over WADO-RS, as the caller retrieves them (none on 404). */
async function retrieve(who: Person, seriesUid: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/dicomweb/studies/${studyUid}/series/${seriesUid}`,
    headers: { ...bearer(who.token), accept: DICOM },
  });
  if (response.statusCode === 404) {
    return [];
  }
  expect(response.statusCode, response.body).toBe(200);
  const files = await filesOfMultipart(response.rawPayload, String(response.headers['content-type']));
  return files.map(readDocument);
}

const isReportSeries = (entry: { uid: string }) => entry.uid === series.sr || entry.uid === series.ko;

/** Waits until the patient's view of the study's report series satisfies `check`. */
async function reportsBecome(check: (found: { uid: string; modality: string }[]) => boolean) {
  const { people } = archive;
  expect(
    await soon(async () => check((await seriesSeenBy(people.patient)).filter(isReportSeries)), JOB_WAIT_MS),
  ).toBe(true);
}

/** A length's millimetres on the first instance: x along columns, y along rows. */
function millimetres(points: number[][]): number {
  const [[x1, y1], [x2, y2]] = points as [[number, number], [number, number]];
  return Math.hypot((x2 - x1) * spacing[1], (y2 - y1) * spacing[0]);
}

describe("a radiologist's analysis as SR and KO series of the study", () => {
  let lengthUid: string;
  let firstSrSop: string;

  it('writes an SR with the length in mm and the note, and a KO with the key images, for every reader', async () => {
    const { people, items, uids } = archive;
    // A physician's note produces no documents.
    expect(
      (await calls.patchNote(people.physician, items.study, { note: 'Cough for 3 weeks.' })).statusCode,
    ).toBe(200);
    lengthUid = await calls.create(people.radiologist, items.study, lengthOnStudy(uids));
    const noted = await calls.patchNote(people.radiologist, items.study, {
      note: 'Nodule in the right lung.',
      key_images: [{ sop_instance_uid: uids.second, frame: 1, window: { center: 40, width: 400 } }],
    });
    expect(noted.statusCode, noted.body).toBe(200);

    await reportsBecome((found) => found.length === 2);
    for (const reader of [people.patient, people.physician, people.radiologist]) {
      const seen = await seriesSeenBy(reader);
      expect(seen.filter(isReportSeries).sort((a, b) => a.modality.localeCompare(b.modality))).toEqual([
        { uid: series.ko, modality: 'KO' },
        { uid: series.sr, modality: 'SR' },
      ]);
      // The image series is still there; the physician's note made no series of its own.
      expect(seen).toHaveLength(3);
    }

    const [report, ...others] = await retrieve(people.physician, series.sr);
    expect(others).toHaveLength(0);
    expect(report!.SOPClassUID).toBe(ENHANCED_SR);
    expect(report!.StudyInstanceUID).toBe(studyUid);
    expect(report!.Manufacturer).toBe('Radiology Archive');
    expect(only(report!.PatientName)).toEqual({ Alphabetic: 'One^Pat' });
    const [length] = measurementsIn(report!);
    expect(length).toEqual({
      concept: 'Length',
      value: expect.closeTo(millimetres(lengthOnStudy(uids).data.points), 6),
      unit: 'mm',
      sopInstanceUid: uids.first,
    });
    expect(
      contentItems(report!).find(
        (item) => item.ValueType === 'TEXT' && item.TextValue === 'Nodule in the right lung.',
      ),
    ).toBeDefined();
    firstSrSop = String(report!.SOPInstanceUID);

    const [selection] = await retrieve(people.patient, series.ko);
    expect(selection!.SOPClassUID).toBe(KEY_OBJECT_SELECTION);
    const images = contentItems(selection!).filter((item) => item.ValueType === 'IMAGE');
    expect(images.map((image) => only(image.ReferencedSOPSequence).ReferencedSOPInstanceUID)).toEqual([
      uids.second,
    ]);
  });

  it('gives strangers nothing: another physician, an unpaid radiologist', async () => {
    const { people } = archive;
    expect(await retrieve(people.patient, series.sr)).toHaveLength(1);
    for (const stranger of [people.otherPhysician, people.unpaidRadiologist]) {
      expect(await seriesSeenBy(stranger)).toEqual([]);
      expect(await retrieve(stranger, series.sr)).toEqual([]);
    }
  });

  it('replaces the SR when the analysis changes, still one SR series of one instance', async () => {
    const { people, items, uids } = archive;
    const longer = lengthOnStudy(uids, {
      data: {
        points: [
          [0, 0],
          [60, 80],
        ],
      },
    });
    expect((await calls.put(people.radiologist, items.study, lengthUid, longer)).statusCode).toBe(200);
    // Without key_images the stored key images stay, and so does the KO.
    expect(
      (await calls.patchNote(people.radiologist, items.study, { note: 'Nodule, larger on review.' }))
        .statusCode,
    ).toBe(200);

    let reports: ReturnType<typeof readDocument>[] = [];
    expect(
      await soon(async () => {
        reports = await retrieve(people.patient, series.sr);
        return reports.length === 1 && reports[0]!.SOPInstanceUID !== firstSrSop;
      }, JOB_WAIT_MS),
    ).toBe(true);
    expect(measurementsIn(reports[0]!)[0]!.value).toBeCloseTo(millimetres(longer.data.points), 6);
    const seen = (await seriesSeenBy(people.patient)).filter(isReportSeries);
    expect(seen.map((entry) => entry.modality).sort()).toEqual(['KO', 'SR']);
  });

  it('removes the SR and KO when the note is emptied', async () => {
    const { people, items } = archive;
    expect((await calls.patchNote(people.radiologist, items.study, { note: '' })).statusCode).toBe(200);
    await reportsBecome((found) => found.length === 0);
    expect(await retrieve(people.physician, series.sr)).toEqual([]);
    // The files of removed instances outlive their rows for a while: an answer that read the rows
    // before may still be sending them. Their deletion waits in the job queue.
    const { rows } = await t.database.executeSql(
      `select data from pgboss.job where name = 'removed-instance-files' and start_after > now() + interval '5 minutes'`,
      [],
    );
    const keys = (rows as { data: { keys: string[] } }[]).flatMap((row) => row.data.keys);
    expect(keys.length).toBeGreaterThanOrEqual(3);
    for (const key of keys) {
      expect(key).toMatch(new RegExp(`^studies/${items.study}/`));
      expect((await t.app.ctx.storage.stat(key))?.size ?? 0).toBeGreaterThan(0);
    }
    const study = await t.app.inject({
      method: 'GET',
      url: `/api/image/${items.study}`,
      headers: bearer(people.patient.token),
    });
    const summary = imageResponseSchema.parse(study.json()).image.study!;
    expect(summary).toMatchObject({ series_count: 1, instance_count: 2, modalities: ['CT'] });
  });

  it('makes nothing of a note on a raster image', async () => {
    const { people, items } = archive;
    expect((await calls.patchNote(people.radiologist, items.image, { note: 'Looks fine.' })).statusCode).toBe(
      200,
    );
  });
});
