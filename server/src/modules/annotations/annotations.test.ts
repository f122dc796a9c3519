import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { annotationListSchema, saveAnnotationResponseSchema } from '@ra/shared';
import type { TestApp } from '../../../test/test-app.js';
import { createRadiologist } from '../../../test/factories.js';
import {
  addInvoice,
  annotationCalls,
  frameOf,
  lengthOnStudy,
  startAnnotatedArchive,
  signedIn,
  uploadImageFor,
  type AnnotatedArchive,
} from '../../../test/annotated-archive.js';
import { annotations } from '../../db/schema/annotations.js';
import { auditLog } from '../../db/schema/audit.js';

let t: TestApp;
let archive: AnnotatedArchive;
let calls: ReturnType<typeof annotationCalls>;

beforeAll(async () => {
  ({ t, archive, calls } = await startAnnotatedArchive());
});
afterAll(() => t.close());

const studyMark = (overrides: Record<string, unknown> = {}) => lengthOnStudy(archive.uids, overrides);
const imageMark = (overrides: Record<string, unknown> = {}) => ({
  kind: 'probe',
  frame: null,
  data: { points: [[5, 6]] },
  ...overrides,
});
const rowsOf = (uid: string) => t.database.db.select().from(annotations).where(eq(annotations.id, uid));
const notFound = { error: 'Not found.' };
const outsiders = ['otherPatient', 'otherPhysician', 'unpaidRadiologist'] as const;

describe('GET /api/image/:uid/annotations', () => {
  it('refuses anonymous callers and answers 404 to whoever may not read the item', async () => {
    const { people, items } = archive;
    expect((await calls.list(undefined, items.study)).statusCode).toBe(401);
    for (const who of outsiders) {
      const response = await calls.list(people[who], items.study);
      expect(response.statusCode, who).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect((await calls.list(people.patient, items.foreignStudy)).statusCode).toBe(404);
    expect((await calls.list(people.patient, 'not-a-uuid')).statusCode).toBe(404);
    expect((await calls.list(people.patient, crypto.randomUUID())).statusCode).toBe(404);
  });

  it('shows a radiologist’s annotations to the patient and physician once the analysis is written', async () => {
    const { people } = archive;
    const { create, uidsSeenBy, patchNote } = calls;
    const item = await uploadImageFor(t, people.physician, people.patient.id);
    const secondRadiologist = await signedIn(t, await createRadiologist(t.database.db));
    await addInvoice(t, people.patient, people.radiologist, item, true);
    await addInvoice(t, people.patient, secondRadiologist, item, true);
    const byRadiologist = await create(people.radiologist, item, imageMark({ label: 'Nodule' }));
    const byPhysician = await create(people.physician, item, imageMark());
    const byPatient = await create(people.patient, item, imageMark());

    expect(await uidsSeenBy(people.patient, item)).toEqual([byPatient]);
    expect(await uidsSeenBy(people.physician, item)).toEqual([byPhysician]);
    expect(await uidsSeenBy(people.radiologist, item)).toEqual([byRadiologist]);

    // An empty note is no analysis yet.
    expect((await patchNote(people.radiologist, item, { note: '' })).statusCode).toBe(200);
    expect(await uidsSeenBy(people.patient, item)).toEqual([byPatient]);

    expect((await patchNote(people.radiologist, item, { note: 'Benign.' })).statusCode).toBe(200);
    expect(await uidsSeenBy(people.patient, item)).toEqual([byRadiologist, byPatient]);
    expect(await uidsSeenBy(people.physician, item)).toEqual([byRadiologist, byPhysician]);
    // Radiologists never see anyone else's marks: the physician's, or another radiologist's analysis.
    const bySecond = await create(secondRadiologist, item, imageMark());
    expect((await patchNote(secondRadiologist, item, { note: 'Agree.' })).statusCode).toBe(200);
    expect(await uidsSeenBy(people.radiologist, item)).toEqual([byRadiologist]);
    expect(await uidsSeenBy(secondRadiologist, item)).toEqual([bySecond]);
    expect(await uidsSeenBy(people.patient, item)).toEqual([byRadiologist, byPatient, bySecond]);

    const seen = annotationListSchema.parse((await calls.list(people.patient, item)).json()).annotations;
    expect(seen[0]).toEqual({
      uid: byRadiologist,
      author: { uid: people.radiologist.id, role: 'RADIOLOGIST', full_name: 'Dr. Ray Diologist' },
      kind: 'probe',
      frame: null,
      data: { points: [[5, 6]] },
      label: 'Nodule',
      updatedAt: expect.stringMatching(/Z$/),
    });
  });

  it('audits the read', async () => {
    const { people, items } = archive;
    expect((await calls.list(people.physician, items.image)).statusCode).toBe(200);
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.recordId, items.image), eq(auditLog.recordType, 'annotation-list')));
    expect(rows).toContainEqual(
      expect.objectContaining({ actorId: people.physician.id, patientId: people.patient.id, action: 'read' }),
    );
  });
});

describe('PUT /api/image/:uid/annotations/:annotationUid', () => {
  it('refuses anonymous callers and answers 404 to whoever may not read the item', async () => {
    const { people, items } = archive;
    const uid = crypto.randomUUID();
    expect((await calls.put(undefined, items.study, uid, studyMark())).statusCode).toBe(401);
    for (const who of outsiders) {
      const response = await calls.put(people[who], items.study, uid, studyMark());
      expect(response.statusCode, who).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect(await rowsOf(uid)).toEqual([]);
  });

  it('answers 404 for another author’s annotation uid and for the caller’s own on another item', async () => {
    const { people, items } = archive;
    const theirs = await calls.create(people.physician, items.study, studyMark({ label: 'Physician’s' }));
    const response = await calls.put(people.patient, items.study, theirs, studyMark({ label: 'Taken over' }));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual(notFound);
    expect((await calls.put(people.physician, items.image, theirs, imageMark())).statusCode).toBe(404);
    expect(await rowsOf(theirs)).toEqual([
      expect.objectContaining({ authorId: people.physician.id, itemId: items.study, label: 'Physician’s' }),
    ]);
  });

  it('refuses the 1,001st annotation of an author on an item, not a replacement', async () => {
    const { people, items } = archive;
    const item = items.image;
    const rows = Array.from({ length: 999 }, (_, index) => ({
      id: crypto.randomUUID(),
      itemId: item,
      authorId: people.patient.id,
      kind: 'probe' as const,
      data: { points: [[index, index]] as [number, number][] },
    }));
    await t.database.db.insert(annotations).values(rows);
    const thousandth = await calls.create(people.patient, item, imageMark());
    const refused = await calls.put(people.patient, item, crypto.randomUUID(), imageMark());
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ success: false, msg: 'This image has too many annotations.' });
    const moved = await calls.put(people.patient, item, thousandth, imageMark({ label: 'moved' }));
    expect(moved.statusCode).toBe(200);
    // The limit is per author: the physician still draws on the same item.
    await calls.create(people.physician, item, imageMark());
    expect(await calls.uidsSeenBy(people.patient, item)).toHaveLength(1000);
  });

  it('creates, then replaces, the author’s annotation and audits both', async () => {
    const { people, items, uids } = archive;
    const uid = crypto.randomUUID();
    const created = await calls.put(people.radiologist, items.study, uid, {
      kind: 'angle',
      frame: frameOf(uids, uids.second),
      data: {
        points: [
          [0, 0],
          [10.25, 0],
          [10, 10],
        ],
        cached: 'dropped',
      },
      label: '  Cobb angle  ',
      extra: 'ignored',
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toEqual({
      success: true,
      annotation: {
        uid,
        author: { uid: people.radiologist.id, role: 'RADIOLOGIST', full_name: 'Dr. Ray Diologist' },
        kind: 'angle',
        frame: frameOf(uids, uids.second),
        data: {
          points: [
            [0, 0],
            [10.25, 0],
            [10, 10],
          ],
        },
        label: 'Cobb angle',
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
    });
    const first = saveAnnotationResponseSchema.parse(created.json()).annotation;

    const replaced = await calls.put(people.radiologist, items.study, uid, studyMark({ kind: 'arrow' }));
    expect(replaced.statusCode).toBe(200);
    const second = saveAnnotationResponseSchema.parse(replaced.json()).annotation;
    expect(second).toMatchObject({
      kind: 'arrow',
      frame: frameOf(uids),
      data: {
        points: [
          [10, 20],
          [30, 40.5],
        ],
      },
      label: '',
    });
    expect(Date.parse(second.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.updatedAt));
    expect(await rowsOf(uid)).toHaveLength(1);
    expect(await calls.uidsSeenBy(people.radiologist, items.study)).toContain(uid);

    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.recordId, uid));
    expect(audit.map((row) => [row.action, row.recordType, row.actorId, row.patientId])).toEqual([
      ['create', 'annotation', people.radiologist.id, people.patient.id],
      ['update', 'annotation', people.radiologist.id, people.patient.id],
    ]);
  });
});

describe('DELETE /api/image/:uid/annotations/:annotationUid', () => {
  it('lets only the author delete, answering 404 for anyone else’s and for none', async () => {
    const { people, items } = archive;
    const uid = await calls.create(people.physician, items.study, studyMark());
    expect((await calls.remove(undefined, items.study, uid)).statusCode).toBe(401);
    for (const who of [...outsiders, 'patient', 'radiologist'] as const) {
      const response = await calls.remove(people[who], items.study, uid);
      expect(response.statusCode, who).toBe(404);
      expect(response.json()).toEqual(notFound);
    }
    expect((await calls.remove(people.physician, items.image, uid)).statusCode).toBe(404);
    expect(await rowsOf(uid)).toHaveLength(1);
    expect((await calls.remove(people.physician, items.study, 'not-a-uuid')).statusCode).toBe(400);

    const deleted = await calls.remove(people.physician, items.study, uid);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect(await calls.uidsSeenBy(people.physician, items.study)).not.toContain(uid);
    expect((await calls.remove(people.physician, items.study, uid)).statusCode).toBe(404);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.recordId, uid));
    expect(audit.map((row) => row.action)).toEqual(['create', 'delete']);
  });
});
