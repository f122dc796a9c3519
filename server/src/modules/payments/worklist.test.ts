import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { worklistSchema } from '@ra/shared';
import { bearer } from '../../../test/factories.js';
import {
  startAnnotatedArchive,
  type AnnotatedArchive,
  type Person,
  type annotationCalls,
} from '../../../test/annotated-archive.js';
import type { TestApp } from '../../../test/test-app.js';
import { auditLog } from '../../db/schema/audit.js';

let t: TestApp;
let archive: AnnotatedArchive;
let calls: ReturnType<typeof annotationCalls>;
beforeAll(async () => {
  ({ t, archive, calls } = await startAnnotatedArchive());
});
afterAll(() => t.close());

function getWorklist(who: Person | undefined) {
  return t.app.inject({ method: 'GET', url: '/api/user/worklist', headers: who ? bearer(who.token) : {} });
}

async function worklistOf(who: Person) {
  const response = await getWorklist(who);
  expect(response.statusCode, response.body).toBe(200);
  return worklistSchema.parse(response.json()).requests;
}

describe('GET /api/user/worklist', () => {
  it('is the radiologist’s alone', async () => {
    const { people } = archive;
    expect((await getWorklist(undefined)).statusCode).toBe(401);
    for (const who of [people.patient, people.physician]) {
      expect((await getWorklist(who)).statusCode).toBe(403);
    }
    // An open invoice is a request not yet paid: it is not work yet.
    expect(await worklistOf(people.unpaidRadiologist)).toEqual([]);
  });

  it('lists paid requests oldest first with the patient and the physician’s question, finished ones last', async () => {
    const { people, items } = archive;
    const first = await worklistOf(people.radiologist);
    expect(first.map((request) => [request.item.uid, request.analysis_status])).toEqual([
      [items.study, 'waiting'],
      [items.image, 'waiting'],
    ]);
    expect(first[0]!.patient).toEqual({ uid: people.patient.id, full_name: 'Pat One' });
    expect(first[0]!.physician_note).toBeNull();
    expect(first[0]!.item.kind).toBe('study');

    await calls.patchNote(people.physician, items.study, { note: 'Query fracture of the left radius.' });
    await calls.create(people.radiologist, items.image, {
      kind: 'arrow',
      frame: null,
      data: {
        points: [
          [1, 2],
          [3, 4],
        ],
      },
    });
    const marked = await worklistOf(people.radiologist);
    expect(marked.map((request) => [request.item.uid, request.analysis_status])).toEqual([
      [items.study, 'waiting'],
      [items.image, 'draft'],
    ]);
    expect(marked[0]!.physician_note).toBe('Query fracture of the left radius.');

    expect(
      (await calls.patchNote(people.radiologist, items.study, { note: 'No fracture.' })).statusCode,
    ).toBe(200);
    const answered = await worklistOf(people.radiologist);
    expect(answered.map((request) => [request.item.uid, request.analysis_status])).toEqual([
      [items.image, 'draft'],
      [items.study, 'done'],
    ]);
    // The radiologist's own note is on the item they read; another radiologist's would not be.
    expect(answered[1]!.item.authors.map((author) => author.note).sort()).toEqual([
      'No fracture.',
      'Query fracture of the left radius.',
    ]);
  });

  it('is audited as a read of each patient’s items', async () => {
    const { people } = archive;
    await worklistOf(people.radiologist);
    const rows = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, people.radiologist.id), eq(auditLog.recordType, 'image-list')));
    expect(rows.map((row) => row.patientId)).toContain(people.patient.id);
    expect(rows.map((row) => row.patientId)).not.toContain(people.otherPatient.id);
  });
});
