import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import {
  ANNOTATION_LIMITS,
  imageResponseSchema,
  REPORTED_ANNOTATION_LIMITS,
  reportedAnnotationsResponseSchema,
} from '@ra/shared';
import type { TestApp } from '../../../test/test-app.js';
import { bearer } from '../../../test/factories.js';
import {
  annotationCalls,
  lengthOnStudy,
  startAnnotatedArchive,
  type AnnotatedArchive,
  type Person,
} from '../../../test/annotated-archive.js';
import { newUid, sampleCopy } from '../../../test/dicom-files.js';
import { stow } from '../../../test/stow.js';
import { soon } from '../../../test/soon.js';
import {
  AREA,
  contentItem,
  el,
  group,
  imageRef,
  LENGTH,
  num,
  region,
  thirdPartyReport,
  type Item,
  type ReportStudy,
} from '../../../test/third-party-sr.js';
import { auditLog } from '../../db/schema/audit.js';
import { dicomSeries, studies } from '../../db/schema/studies.js';
import { reportSeriesOf } from './reports.service.js';
import { buildMeasurementReport } from './sr-builder.js';

/*
 * GET /api/image/:uid/reported-annotations (docs/api.md §15.4): the measurements of Structured
 * Reports found in a study, as another workstation wrote them, for every reader of the study and
 * no one else; the archive's own reports are not among them; a hostile report is read within
 * bounds, never a failure.
 */

// The hostile report's content tree is some MB of DICOM JSON: this archive lets instances hold it,
// so that what is bounded is the reading. Set before the app starts its part-reader threads.
process.env.DICOM_MAX_METADATA_BYTES = String(16 * 1024 * 1024);

let t: TestApp;
let archive: AnnotatedArchive;
let calls: ReturnType<typeof annotationCalls>;
/** The study stored by STOW-RS: two CT instances, then reports added to it. */
const stowed = { item: '', seriesUid: newUid(), first: newUid(), second: newUid() };
let study: ReportStudy;

const PAT = { patientName: 'One^Pat', birthDate: '19850203' };
const JOB_WAIT_MS = 30_000;

function reported(who: Person | undefined, item: string) {
  return t.app.inject({
    method: 'GET',
    url: `/api/image/${item}/reported-annotations`,
    headers: who ? bearer(who.token) : {},
  });
}

async function reportsSeenBy(who: Person, item: string) {
  const response = await reported(who, item);
  expect(response.statusCode, response.body).toBe(200);
  return reportedAnnotationsResponseSchema.parse(response.json()).reports;
}

/** Stores Part 10 files by STOW-RS as the patient's physician. */
async function store(files: Buffer[]): Promise<void> {
  const response = await stow(
    t.app,
    archive.people.physician.token,
    files,
    `?patient=${archive.people.patient.id}&confirm_patient_mismatch=true`,
  );
  expect(response.statusCode, response.body).toBe(200);
}

beforeAll(async () => {
  ({ t, archive, calls } = await startAnnotatedArchive());
  study = { studyUid: newUid(), ...PAT };
  const ct = { ...PAT, studyUid: study.studyUid, seriesUid: stowed.seriesUid };
  await store([
    await sampleCopy('CT_small.dcm', { ...ct, sopUid: stowed.first, instanceNumber: 1 }),
    await sampleCopy('CT_small.dcm', { ...ct, sopUid: stowed.second, instanceNumber: 2 }),
  ]);
  const [row] = await t.database.db
    .select({ itemId: studies.itemId })
    .from(studies)
    .where(eq(studies.studyInstanceUid, study.studyUid));
  stowed.item = row!.itemId;
}, 60_000);
afterAll(() => t.close());

describe('GET /api/image/:uid/reported-annotations', () => {
  const reportSeries = newUid();

  it("gives a third party's TID 1500 measurements with their kinds, frames and points", async () => {
    const first = imageRef(stowed.first);
    const report = thirdPartyReport(
      study,
      [
        group('Lesion 1', [num(LENGTH, '12.5', 'mm', region('POLYLINE', [10, 20, 30.5, 40], first))]),
        group('Lesion 2', [
          num(
            AREA,
            '314.159',
            'mm2',
            region('ELLIPSE', [40, 50, 60, 50, 50, 45, 50, 55], imageRef(stowed.second)),
          ),
        ]),
        // TID 1410: the region is the group's own, labelled by its tracking identifier.
        group('Box A', [region('POLYLINE', [5, 6, 25, 6, 25, 16, 5, 16, 5, 6], imageRef(stowed.second, 1))]),
        group('Spot', [region('POINT', [7.5, 8.5], first)]),
        // Not drawable by the viewer, or not on an image of the study: left out.
        group('Tilted', [region('ELLIPSE', [0, 0, 10, 10, 2, 8, 8, 2], first)]),
        group('Elsewhere', [region('POINT', [1, 1], imageRef(newUid()))]),
        group('No such frame', [region('POINT', [1, 1], imageRef(stowed.first, 2))]),
        group('Polygon', [region('POLYGON', [1, 1, 5, 1, 3, 4], first)]),
      ],
      { observer: 'Reader^Rita^^Dr.', seriesDescription: 'OHIF measurements', seriesUid: reportSeries },
    );
    await store([report]);

    const reports = await reportsSeenBy(archive.people.patient, stowed.item);
    expect(reports).toHaveLength(1);
    const [found] = reports;
    expect(found).toMatchObject({
      series_instance_uid: reportSeries,
      series_description: 'OHIF measurements',
      author: 'Dr. Rita Reader',
      content_date: '2024-05-02',
    });
    const frame = (sop: string) => ({
      series_instance_uid: stowed.seriesUid,
      sop_instance_uid: sop,
      frame: 1,
    });
    expect(found!.annotations).toEqual([
      {
        kind: 'length',
        frame: frame(stowed.first),
        data: {
          points: [
            [10, 20],
            [30.5, 40],
          ],
        },
        label: 'Length 12.5 mm',
      },
      {
        kind: 'ellipse',
        frame: frame(stowed.second),
        data: {
          points: [
            [40, 45],
            [60, 55],
          ],
        },
        label: 'Area 314.2 mm²',
      },
      {
        kind: 'rectangle',
        frame: frame(stowed.second),
        data: {
          points: [
            [5, 6],
            [25, 16],
          ],
        },
        label: 'Box A',
      },
      { kind: 'probe', frame: frame(stowed.first), data: { points: [[7.5, 8.5]] }, label: 'Spot' },
    ]);
  });

  it('answers 401 without a token and 404 to whoever may not read the study, as for no study', async () => {
    const { people } = archive;
    expect((await reported(undefined, stowed.item)).statusCode).toBe(401);
    expect((await reportsSeenBy(people.physician, stowed.item)).length).toBe(1);
    // The radiologist was paid for the archive's other study, not this one.
    for (const stranger of [
      people.otherPhysician,
      people.otherPatient,
      people.radiologist,
      people.unpaidRadiologist,
    ]) {
      const response = await reported(stranger, stowed.item);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual((await reported(stranger, crypto.randomUUID())).json());
    }
    expect((await reported(people.patient, 'not-a-uuid')).statusCode).toBe(404);
    // A raster image holds no reports.
    expect(await reportsSeenBy(people.patient, archive.items.image)).toEqual([]);
  });

  it('audits the read', async () => {
    const { people } = archive;
    await reportsSeenBy(people.physician, stowed.item);
    const rows = await t.database.db
      .select({ patientId: auditLog.patientId, action: auditLog.action })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.actorId, people.physician.id),
          eq(auditLog.recordType, 'reported-annotation-list'),
          eq(auditLog.recordId, stowed.item),
        ),
      );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toEqual({ patientId: people.patient.id, action: 'read' });
  });

  it("reads the archive's own SR as another workstation would, to the same points", async () => {
    const uid = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;
    const own = buildMeasurementReport({
      context: {
        studyInstanceUid: study.studyUid,
        studyAttributes: { '00100010': { vr: 'PN', Value: [{ Alphabetic: PAT.patientName }] } },
        instances: new Map(
          [stowed.first, stowed.second].map((sop) => [
            sop,
            {
              seriesInstanceUid: stowed.seriesUid,
              sopInstanceUid: sop,
              sopClassUid: '1.2.840.10008.5.1.4.1.1.2',
              numberOfFrames: 1,
              metadata: {},
            },
          ]),
        ),
        observerName: 'Elsewhere^Ed',
        seriesInstanceUid: newUid(),
        sopInstanceUid: newUid(),
        seriesNumber: 9901,
        createdAt: new Date('2025-03-04T05:06:07Z'),
      },
      annotations: [
        {
          uid: uid(1),
          kind: 'length',
          sopInstanceUid: stowed.first,
          frame: 1,
          points: [
            [1.25, 2.5],
            [100, 80],
          ],
          label: '',
        },
        {
          uid: uid(2),
          kind: 'rectangle',
          sopInstanceUid: stowed.first,
          frame: 1,
          points: [
            [3, 4],
            [30, 40],
          ],
          label: '',
        },
        {
          uid: uid(3),
          kind: 'ellipse',
          sopInstanceUid: stowed.second,
          frame: 1,
          points: [
            [10, 20],
            [50, 30],
          ],
          label: '',
        },
        {
          uid: uid(4),
          kind: 'probe',
          sopInstanceUid: stowed.second,
          frame: 1,
          points: [[63.5, 0.5]],
          label: 'Spot',
        },
      ],
      note: 'Written by another archive like this one.',
    });
    await store([own]);
    const reports = await reportsSeenBy(archive.people.patient, stowed.item);
    const found = reports.find((report) => report.author === 'Ed Elsewhere');
    expect(found?.content_date).toBe('2025-03-04');
    expect(found?.annotations.map((annotation) => [annotation.kind, annotation.data.points])).toEqual([
      [
        'length',
        [
          [1.25, 2.5],
          [100, 80],
        ],
      ],
      [
        'rectangle',
        [
          [3, 4],
          [30, 40],
        ],
      ],
      [
        'ellipse',
        [
          [10, 20],
          [50, 30],
        ],
      ],
      ['probe', [[63.5, 0.5]]],
    ]);
  });

  it(
    "leaves out the series of the archive's own reports on the study",
    async () => {
      const { people, items, uids } = archive;
      await calls.create(people.radiologist, items.study, lengthOnStudy(uids));
      const noted = await calls.patchNote(people.radiologist, items.study, { note: 'A nodule.' });
      expect(noted.statusCode, noted.body).toBe(200);
      const own = reportSeriesOf(items.study, people.radiologist.id).sr;
      const isWritten = async () =>
        (
          await t.database.db
            .select({ uid: dicomSeries.seriesInstanceUid })
            .from(dicomSeries)
            .where(and(eq(dicomSeries.itemId, items.study), eq(dicomSeries.seriesInstanceUid, own)))
        ).length > 0;
      expect(await soon(isWritten, JOB_WAIT_MS)).toBe(true);

      // Another workstation's report on the same study is listed; the archive's is not.
      const image = await t.app.inject({
        method: 'GET',
        url: `/api/image/${items.study}`,
        headers: bearer(people.patient.token),
      });
      const studyUid = imageResponseSchema.parse(image.json()).image.study!.study_instance_uid;
      const other = newUid();
      await store([
        thirdPartyReport(
          { studyUid, ...PAT },
          [group('L', [region('POINT', [2, 3], imageRef(uids.first))])],
          {
            seriesUid: other,
          },
        ),
      ]);
      for (const reader of [people.patient, people.radiologist]) {
        const reports = await reportsSeenBy(reader, items.study);
        expect(reports.map((report) => report.series_instance_uid)).toEqual([other]);
      }
    },
    JOB_WAIT_MS + 10_000,
  );

  it('reads a hostile report within bounds: 10,000 groups of garbage answer 200, not 500', async () => {
    // Lean items (no relationships, no SOP classes), so that the file stays within the elements a
    // file may hold and is filed: what is tested is the reading.
    const image = (frame?: number): Item =>
      contentItem(undefined, 'IMAGE', undefined, {
        '00081199': el('SQ', {
          '00081155': el('UI', stowed.first),
          ...(frame !== undefined && { '00081160': el('IS', frame) }),
        }),
      });
    const scoord = (graphicType: string, data: number[], reference?: Item) =>
      contentItem(undefined, 'CONTAINER', undefined, {}, [
        contentItem(
          undefined,
          'SCOORD',
          undefined,
          { '00700023': el('CS', graphicType), '00700022': el('FL', ...data) },
          reference ? [reference] : [],
        ),
      ]);
    const groups = Array.from({ length: 10_000 }, (_, index) => {
      switch (index % 8) {
        case 0:
        case 4:
          return scoord('POINT', [index % 500, 7], image());
        case 1:
          return scoord('POLYLINE', [Number.NaN, 1, 2, 3]);
        case 2:
          return scoord('POINT', [1, 2]);
        case 3:
          return scoord('POINT', [1e9, -1e9], image());
        case 5:
          return scoord('ELLIPSE', [Number.POSITIVE_INFINITY, 0, 1, 1, 2, 2, 3, 3]);
        case 6:
          return scoord('POINT', [1, 2], image(-3));
        default:
          return scoord('POLYLINE', [1, 2, 3]);
      }
    });
    const series = newUid();
    await store([thirdPartyReport(study, groups, { rawContent: true, seriesUid: series })]);

    const reports = await reportsSeenBy(archive.people.patient, stowed.item);
    const hostile = reports.find((report) => report.series_instance_uid === series);
    expect(hostile).toBeDefined();
    expect(hostile!.author).toBe('');
    expect(hostile!.annotations.length).toBeGreaterThan(0);
    expect(hostile!.annotations.length).toBeLessThanOrEqual(REPORTED_ANNOTATION_LIMITS.perReport);
    for (const annotation of hostile!.annotations) {
      expect(annotation.kind).toBe('probe');
      expect(annotation.data.points[0]![1]).toBe(7);
      expect(Math.abs(annotation.data.points[0]![0])).toBeLessThanOrEqual(ANNOTATION_LIMITS.coordinate);
    }
  }, 60_000);
});
