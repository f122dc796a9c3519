import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
} from '../../../test/factories.js';
import { createUpload, patchUpload, pngImage, uploadFile } from '../../../test/uploads.js';
import { auditLog } from '../../db/schema/audit.js';
import { itemNotes } from '../../db/schema/archive-items.js';
import { notifications } from '../../db/schema/notifications.js';
import { linkPatient } from '../patients/patients.repository.js';
import { UrlSigner } from '../storage/signed-url.js';
import { thumbnailJob } from './thumbnail.job.js';

let t: TestApp;
const people = {} as Record<
  'physician' | 'otherPhysician' | 'patient' | 'otherPatient' | 'radiologist',
  { id: string; token: string }
>;

beforeAll(async () => {
  t = await createTestApp({}, { jobPollingSeconds: 0.5 });
  const db = t.database.db;
  const accounts = {
    physician: await createPhysician(db, { firstName: 'Phil', lastName: 'Doc' }),
    otherPhysician: await createPhysician(db),
    patient: await createPatient(db, { firstName: 'Pat', lastName: 'One' }),
    otherPatient: await createPatient(db),
    radiologist: await createRadiologist(db, { firstName: 'Ray', lastName: 'Diologist' }),
  };
  for (const [name, user] of Object.entries(accounts)) {
    people[name as keyof typeof people] = { id: user.id, token: (await signIn(t.app, user.email)).token };
  }
  await linkPatient(db, accounts.patient.id, accounts.physician.id);
  await linkPatient(db, accounts.otherPatient.id, accounts.otherPhysician.id);
});
afterAll(() => t.close());

function postImage(token: string, payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/user/upload-image', headers: bearer(token), payload });
}

async function uploadImageFor(
  patientId: string,
  notes = 'Looks fine.',
  recommendation: string | null = null,
) {
  const url = await uploadFile(t.app, people.physician.token, await pngImage());
  const response = await postImage(people.physician.token, {
    patient: patientId,
    notes,
    url,
    recommendation,
  });
  expect(response.statusCode).toBe(201);
  return response.json().uid as string;
}

describe('POST /api/user/upload-image', () => {
  it('refuses anonymous callers, patients, and patients who are not the caller’s', async () => {
    const url = await uploadFile(t.app, people.physician.token, await pngImage());
    const body = { patient: people.patient.id, notes: '', url };
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/user/upload-image', payload: body })).statusCode,
    ).toBe(401);
    expect((await postImage(people.patient.token, body)).statusCode).toBe(403);
    const foreign = await postImage(people.physician.token, { ...body, patient: people.otherPatient.id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ error: 'Not found.' });
    expect((await postImage(people.radiologist.token, body)).statusCode).toBe(404);
  });

  it.each([
    ['an unknown upload', () => '/api/uploads/00000000-0000-4000-8000-000000000000'],
    ['a malformed url', () => 'https://elsewhere.example/file.png'],
  ])('refuses %s', async (_label, url) => {
    const response = await postImage(people.physician.token, { patient: people.patient.id, url: url() });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [{ msg: 'The upload was not found or is not finished.', path: 'url' }],
    });
  });

  it('refuses someone else’s upload and an unfinished one', async () => {
    const theirs = await uploadFile(t.app, people.otherPhysician.token, await pngImage());
    const response = await postImage(people.physician.token, { patient: people.patient.id, url: theirs });
    expect(response.json().errors[0].msg).toBe('The upload was not found or is not finished.');
    const created = await createUpload(t.app, people.physician.token, { size: 5000 });
    const unfinished = await postImage(people.physician.token, {
      patient: people.patient.id,
      url: created.headers.location,
    });
    expect(unfinished.statusCode).toBe(400);
  });

  it('refuses a file that is not an image', async () => {
    const file = Buffer.from('just some text, not an image at all');
    const created = await createUpload(t.app, people.physician.token, { size: file.length });
    await patchUpload(t.app, people.physician.token, created.headers.location as string, 0, file);
    const response = await postImage(people.physician.token, {
      patient: people.patient.id,
      url: created.headers.location,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: [{ msg: 'The file is not a supported image.', path: 'url' }] });
  });

  it('refuses a recommendation that is not a radiologist', async () => {
    const url = await uploadFile(t.app, people.physician.token, await pngImage());
    const response = await postImage(people.physician.token, {
      patient: people.patient.id,
      url,
      recommendation: people.otherPhysician.id,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      errors: [{ msg: 'The selected radiologist does not exist.', path: 'recommendation' }],
    });
  });

  it('stores the image with its note, notifies, audits, and cannot claim the same upload twice', async () => {
    const url = await uploadFile(t.app, people.physician.token, await pngImage(300, 200));
    const response = await postImage(people.physician.token, {
      patient: people.patient.id,
      notes: '  Small nodule, upper left.  ',
      url: `http://localhost:3000${url}`,
      recommendation: people.radiologist.id,
    });
    expect(response.statusCode).toBe(201);
    const { uid } = response.json();
    expect(response.json()).toEqual({ success: true, uid: expect.any(String) });
    expect((await postImage(people.physician.token, { patient: people.patient.id, url })).statusCode).toBe(
      400,
    );

    const image = (
      await t.app.inject({ method: 'GET', url: `/api/image/${uid}`, headers: bearer(people.patient.token) })
    ).json().image;
    expect(image).toMatchObject({
      uid,
      content_type: 'image/png',
      width: 300,
      height: 200,
      patient_uid: people.patient.id,
      first_name: 'Pat',
      last_name: 'One',
      uploadedBy_title: 'Dr.',
      uploadedBy_first_name: 'Phil',
      uploadedBy_last_name: 'Doc',
      authors: [
        {
          uid: people.physician.id,
          role: 'PHYSICIAN',
          full_name: 'Dr. Phil Doc',
          note: 'Small nodule, upper left.',
          recommendation: 'Dr. Ray Diologist',
          updatedAt: expect.any(String),
        },
      ],
    });
    const sent = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, people.patient.id));
    expect(sent.map((n) => [n.message, n.to])).toContainEqual([
      'You have a new image from your physician.',
      '/imagelibrary',
    ]);
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.recordId, uid));
    expect(audit).toContainEqual(
      expect.objectContaining({ actorId: people.physician.id, action: 'create', recordType: 'image' }),
    );
  });

  it('reminds the physician to add notes when there are none', async () => {
    await uploadImageFor(people.patient.id, '');
    const reminders = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, people.physician.id));
    expect(reminders.map((n) => [n.message, n.to])).toContainEqual([
      "Don't forget to add your notes to your patient's image.",
      '/patients',
    ]);
  });
});

describe('reading images', () => {
  it('lets the patient and their physician read, and nobody else', async () => {
    const uid = await uploadImageFor(people.patient.id);
    const read = (token?: string) =>
      t.app.inject({ method: 'GET', url: `/api/image/${uid}`, headers: token ? bearer(token) : {} });
    expect((await read()).statusCode).toBe(401);
    expect((await read(people.patient.token)).statusCode).toBe(200);
    expect((await read(people.physician.token)).statusCode).toBe(200);
    for (const who of ['otherPatient', 'otherPhysician', 'radiologist'] as const) {
      const response = await read(people[who].token);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found.' });
    }
    const list = (token: string, patient = people.patient.id) =>
      t.app.inject({ method: 'GET', url: `/api/user/${patient}/images`, headers: bearer(token) });
    expect((await list(people.patient.token)).statusCode).toBe(200);
    expect((await list(people.otherPatient.token)).statusCode).toBe(404);
    expect((await list(people.otherPhysician.token)).statusCode).toBe(404);
    expect((await list(people.radiologist.token)).statusCode).toBe(404);
    expect((await list(people.patient.token, 'not-a-uuid')).statusCode).toBe(404);
  });

  it('pages the list newest first with a cursor', async () => {
    const patient = await createPatient(t.database.db);
    await linkPatient(t.database.db, patient.id, people.physician.id);
    const uids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      uids.push(await uploadImageFor(patient.id));
    }
    const first = await t.app.inject({
      method: 'GET',
      url: `/api/user/${patient.id}/images?limit=2`,
      headers: bearer(people.physician.token),
    });
    expect(first.json().images.map((i: { uid: string }) => i.uid)).toEqual([uids[2], uids[1]]);
    const cursor = first.json().next_cursor as string;
    expect(cursor).toEqual(expect.any(String));
    const second = await t.app.inject({
      method: 'GET',
      url: `/api/user/${patient.id}/images?limit=2&cursor=${encodeURIComponent(cursor)}`,
      headers: bearer(people.physician.token),
    });
    expect(second.json()).toEqual({ images: [expect.objectContaining({ uid: uids[0] })], next_cursor: null });
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/user/${patient.id}/images?limit=500`,
      headers: bearer(people.physician.token),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0]).toEqual({
      msg: 'Limit must be a whole number from 1 to 200.',
      path: 'limit',
    });
  });

  it('serves the file only through a valid, unexpired signature, with ranges', async () => {
    const uid = await uploadImageFor(people.patient.id);
    const image = (
      await t.app.inject({ method: 'GET', url: `/api/image/${uid}`, headers: bearer(people.patient.token) })
    ).json().image;
    const file = await t.app.inject({ method: 'GET', url: image.url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['cache-control']).toBe('no-store');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="[0-9a-f-]+\.png"$/);
    expect((await sharp(file.rawPayload).metadata()).width).toBe(300);

    const partial = await t.app.inject({ method: 'GET', url: image.url, headers: { range: 'bytes=0-9' } });
    expect(partial.statusCode).toBe(206);
    expect(partial.rawPayload.equals(file.rawPayload.subarray(0, 10))).toBe(true);
    expect(partial.headers['content-range']).toBe(`bytes 0-9/${file.rawPayload.length}`);

    const tampered = image.url.replace(/sig=(.)/, (_m: string, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`);
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    const otherFile = image.url.replace(/images\/[0-9a-f-]+/, 'images/00000000-0000-4000-8000-000000000000');
    expect((await t.app.inject({ method: 'GET', url: otherFile })).statusCode).toBe(403);
    const path = new URL(image.url, 'http://x').pathname;
    const expired = new UrlSigner(t.app.ctx.fileUrlSecret).sign(path, null, Date.now() - 3600 * 1000);
    expect((await t.app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
  });

  it('makes a WebP thumbnail within 200×200 in the background', async () => {
    const url = await uploadFile(t.app, people.physician.token, await pngImage(1000, 400));
    const uid = (
      await postImage(people.physician.token, { patient: people.patient.id, notes: 'n', url })
    ).json().uid;
    let thumbnailUrl: string | null = null;
    for (let attempt = 0; attempt < 100 && !thumbnailUrl; attempt += 1) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/image/${uid}`,
        headers: bearer(people.patient.token),
      });
      thumbnailUrl = response.json().image.thumbnail_url;
      if (!thumbnailUrl) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    expect(thumbnailUrl).not.toBeNull();
    const thumbnail = await t.app.inject({ method: 'GET', url: thumbnailUrl! });
    expect(thumbnail.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumbnail.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 200, height: 80 });

    // Running the job again changes nothing.
    await thumbnailJob(t.database.db, t.app.ctx.storage, t.config.uploads.maxImagePixels).handle({
      imageId: uid,
    });
    const again = (
      await t.app.inject({ method: 'GET', url: `/api/image/${uid}`, headers: bearer(people.patient.token) })
    ).json();
    expect(new URL(again.image.thumbnail_url, 'http://x').pathname).toBe(
      new URL(thumbnailUrl!, 'http://x').pathname,
    );
  });

  it('writes audit rows for reads', async () => {
    const uid = await uploadImageFor(people.patient.id);
    await t.app.inject({ method: 'GET', url: `/api/image/${uid}`, headers: bearer(people.patient.token) });
    const rows = await t.database.db.select().from(auditLog).where(eq(auditLog.recordId, uid));
    expect(rows).toContainEqual(
      expect.objectContaining({
        actorId: people.patient.id,
        patientId: people.patient.id,
        action: 'read',
        recordType: 'image',
      }),
    );
  });
});

describe('PATCH /api/image/:uid', () => {
  it('lets only the patient’s physician write a note, one per author, updated in place', async () => {
    const uid = await uploadImageFor(people.patient.id, 'first');
    const patch = (token: string | undefined, note: unknown, method: 'PATCH' | 'PUT' = 'PATCH') =>
      t.app.inject({
        method,
        url: `/api/image/${uid}`,
        headers: token ? bearer(token) : {},
        payload: { note },
      });
    expect((await patch(undefined, 'x')).statusCode).toBe(401);
    expect((await patch(people.patient.token, 'x')).statusCode).toBe(403);
    expect((await patch(people.otherPhysician.token, 'x')).statusCode).toBe(404);
    expect((await patch(people.radiologist.token, 'x')).statusCode).toBe(404);
    const tooLong = await patch(people.physician.token, 'x'.repeat(10_001));
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().errors[0]).toEqual({ msg: 'Note is too long.', path: 'note' });

    const updated = await patch(people.physician.token, ' second ');
    expect(updated.json()).toEqual({ success: true, note: 'second' });
    expect((await patch(people.physician.token, '', 'PUT')).json()).toEqual({ success: true, note: '' });
    const notes = await t.database.db.select().from(itemNotes).where(eq(itemNotes.itemId, uid));
    expect(notes).toHaveLength(1);
    expect(notes[0]!.note).toBe('');
  });
});
