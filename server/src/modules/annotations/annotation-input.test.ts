import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { TestApp } from '../../../test/test-app.js';
import { bearer } from '../../../test/factories.js';
import { newUid } from '../../../test/dicom-files.js';
import {
  annotationCalls,
  frameOf,
  lengthOnStudy,
  startAnnotatedArchive,
  type AnnotatedArchive,
} from '../../../test/annotated-archive.js';
import { annotations } from '../../db/schema/annotations.js';

/** PUT /api/image/:uid/annotations/:annotationUid: one 400 per rule of the body and the uid. */

let t: TestApp;
let archive: AnnotatedArchive;
let calls: ReturnType<typeof annotationCalls>;

beforeAll(async () => {
  ({ t, archive, calls } = await startAnnotatedArchive());
});
afterAll(() => t.close());

const studyMark = (overrides: Record<string, unknown> = {}) => lengthOnStudy(archive.uids, overrides);
const rowsOf = (uid: string) => t.database.db.select().from(annotations).where(eq(annotations.id, uid));
const points = (...list: unknown[]) => ({ points: list });
const COORDINATES = 'Point coordinates must be numbers from -100000 to 100000.';
const NOT_IN_STUDY = 'This image is not part of the study.';

describe('PUT /api/image/:uid/annotations/:annotationUid input', () => {
  it('refuses an annotation uid that is not a UUID', async () => {
    const response = await calls.put(
      archive.people.physician,
      archive.items.study,
      'not-a-uuid',
      studyMark(),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [{ msg: 'Annotation uid must be a UUID.', path: 'annotationUid' }],
    });
  });

  // Frames are given as functions: the archive's UIDs exist only once beforeAll has run.
  it.each([
    [
      'an unknown kind',
      () => ({ kind: 'circle' }),
      'kind',
      'Kind must be one of length, angle, ellipse, rectangle, probe, arrow.',
    ],
    ['too few points', () => ({ data: points([1, 2]) }), 'data', 'A length has exactly 2 points.'],
    [
      'too many points',
      () => ({ kind: 'angle', data: points([1, 2], [3, 4], [5, 6], [7, 8]) }),
      'data',
      'An angle has exactly 3 points.',
    ],
    [
      'a point of three numbers',
      () => ({ data: points([1, 2, 3], [4, 5]) }),
      'data.points.0',
      'A point must be [x, y].',
    ],
    [
      'a point that is not numbers',
      () => ({ data: points(['1', 2], [4, 5]) }),
      'data.points.0.0',
      COORDINATES,
    ],
    [
      'a point outside the bounds',
      () => ({ data: points([1, 2], [4, -100_001]) }),
      'data.points.1.1',
      COORDINATES,
    ],
    [
      'data without points',
      () => ({ data: { lines: [] } }),
      'data.points',
      'Points must be a list of [x, y].',
    ],
    [
      'data over 16 KB',
      () => ({ data: { ...points([1, 2], [3, 4]), note: 'x'.repeat(16_384) } }),
      'data',
      'Annotation data is too long.',
    ],
    ['a label over 255 characters', () => ({ label: 'x'.repeat(256) }), 'label', 'Label is too long.'],
    [
      'a malformed UID',
      () => ({ frame: frameOf(archive.uids, '1.2.abc') }),
      'frame.sop_instance_uid',
      'SOP Instance UID must be a DICOM UID.',
    ],
    [
      'a frame number of 0',
      () => ({ frame: frameOf(archive.uids, archive.uids.first, 0) }),
      'frame.frame',
      'Frame must be a whole number from 1.',
    ],
    ['an instance of no study', () => ({ frame: frameOf(archive.uids, newUid()) }), 'frame', NOT_IN_STUDY],
    [
      'an instance of another study',
      () => ({ frame: frameOf(archive.uids, archive.uids.foreign, 1, archive.uids.foreignSeries) }),
      'frame',
      NOT_IN_STUDY,
    ],
    [
      'an instance under another series',
      () => ({ frame: frameOf(archive.uids, archive.uids.first, 1, archive.uids.foreignSeries) }),
      'frame',
      NOT_IN_STUDY,
    ],
    [
      'a frame the instance does not have',
      () => ({ frame: frameOf(archive.uids, archive.uids.second, 2) }),
      'frame',
      NOT_IN_STUDY,
    ],
    ['no frame on a study', () => ({ frame: null }), 'frame', 'Choose the frame of the study.'],
  ])('refuses %s', async (_label, overrides, field, msg) => {
    const uid = crypto.randomUUID();
    const response = await calls.put(
      archive.people.physician,
      archive.items.study,
      uid,
      studyMark(overrides()),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({ msg, path: field });
    expect(await rowsOf(uid)).toEqual([]);
  });

  it('refuses a point that is not finite (JSON 1e999 parses to Infinity)', async () => {
    const uid = crypto.randomUUID();
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/image/${archive.items.study}/annotations/${uid}`,
      headers: { ...bearer(archive.people.physician.token), 'content-type': 'application/json' },
      payload: JSON.stringify(studyMark()).replace('40.5', '1e999'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({ msg: COORDINATES, path: 'data.points.1.1' });
    expect(await rowsOf(uid)).toEqual([]);
  });

  it('refuses a frame on a raster image', async () => {
    const uid = crypto.randomUUID();
    const response = await calls.put(archive.people.physician, archive.items.image, uid, {
      kind: 'probe',
      frame: frameOf(archive.uids),
      data: points([5, 6]),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({ msg: 'Only a DICOM study has frames.', path: 'frame' });
    expect(await rowsOf(uid)).toEqual([]);
  });
});
