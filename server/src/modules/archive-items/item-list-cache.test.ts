import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImagePage } from '@ra/shared';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { soon } from '../../../test/soon.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
} from '../../../test/factories.js';
import { pngImage, uploadFile } from '../../../test/uploads.js';
import { linkPatient } from '../patients/patients.repository.js';

/*
 * Image list pages are cached per viewer (images.service.ts listImages). These tests change the
 * archive in every way that shows on a page, through the API and straight in the database (as
 * another instance or the admin CLI would), and expect the next page to show it.
 */
let t: TestApp;
let physician: { id: string; token: string };
let patient: { id: string; token: string };

beforeAll(async () => {
  // No background jobs: a thumbnail made meanwhile would change the lists on its own.
  t = await createTestApp({}, { isWorkingJobs: false });
  const db = t.database.db;
  const doctor = await createPhysician(db, { firstName: 'Cache', lastName: 'Doctor' });
  const person = await createPatient(db);
  await linkPatient(db, person.id, doctor.id);
  physician = { id: doctor.id, token: (await signIn(t.app, doctor.email)).token };
  patient = { id: person.id, token: (await signIn(t.app, person.email)).token };
});
afterAll(() => t.close());

async function listOf(app: TestApp, token: string, patientId: string) {
  const response = await app.app.inject({
    method: 'GET',
    url: `/api/user/${patientId}/images?limit=50`,
    headers: bearer(token),
  });
  return { status: response.statusCode, page: response.json<ImagePage>() };
}

async function upload(app: TestApp, patientId: string, notes: string): Promise<string> {
  const url = await uploadFile(app.app, physician.token, await pngImage());
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/user/upload-image',
    headers: bearer(physician.token),
    payload: { patient: patientId, notes, url },
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ uid: string }>().uid;
}

const exec = (text: string, values: unknown[] = []) => t.database.executeSql(text, values);

describe('a cached image list', () => {
  it('shows an upload and a new note as soon as their requests have answered', async () => {
    const first = await upload(t, patient.id, 'First note');
    // Both viewers now hold a cached page.
    expect((await listOf(t, patient.token, patient.id)).page.images.map((image) => image.uid)).toContain(
      first,
    );
    expect((await listOf(t, physician.token, patient.id)).page.images).toHaveLength(1);

    const second = await upload(t, patient.id, 'Second note');
    // No waiting: the upload answered only once this process had heard of its change.
    expect((await listOf(t, patient.token, patient.id)).page.images.map((image) => image.uid)).toEqual([
      second,
      first,
    ]);
    const edit = await t.app.inject({
      method: 'PATCH',
      url: `/api/image/${first}`,
      headers: bearer(physician.token),
      payload: { note: 'Edited note' },
    });
    expect(edit.statusCode).toBe(200);
    const edited = (await listOf(t, physician.token, patient.id)).page.images.find(
      (image) => image.uid === first,
    );
    expect(edited?.authors.map((author) => author.note)).toEqual(['Edited note']);
  });

  it('shows changes written straight to the database (another process) at once', async () => {
    const uid = (await listOf(t, patient.token, patient.id)).page.images[0]!.uid;
    const noteOf = async () =>
      (await listOf(t, patient.token, patient.id)).page.images.find((image) => image.uid === uid)?.authors[0]
        ?.note;
    await exec(`update item_notes set note = 'Written elsewhere' where item_id = $1`, [uid]);
    expect(await soon(async () => (await noteOf()) === 'Written elsewhere')).toBe(true);

    await exec(`update users set last_name = 'Renamed' where id = $1`, [physician.id]);
    expect(
      await soon(async () =>
        (await listOf(t, patient.token, patient.id)).page.images.every(
          (image) => image.uploadedBy_last_name === 'Renamed',
        ),
      ),
    ).toBe(true);

    await exec(`update archive_items set thumbnail_key = storage_key where id = $1`, [uid]);
    expect(
      await soon(
        async () =>
          (await listOf(t, patient.token, patient.id)).page.images
            .find((image) => image.uid === uid)
            ?.thumbnail_url?.includes('/api/files/') === true,
      ),
    ).toBe(true);
  });

  it('refuses a physician at once when the patient is unlinked from them elsewhere', async () => {
    const other = await createPatient(t.database.db);
    await linkPatient(t.database.db, other.id, physician.id);
    expect((await listOf(t, physician.token, other.id)).status).toBe(200);
    await exec('delete from patient_physicians where patient_id = $1', [other.id]);
    expect(await soon(async () => (await listOf(t, physician.token, other.id)).status === 404)).toBe(true);
  });

  it('never serves a cached page to another viewer, whatever the path or cursor holds', async () => {
    expect((await listOf(t, patient.token, patient.id)).status).toBe(200);
    const stranger = await createPatient(t.database.db);
    const { token } = await signIn(t.app, stranger.email);
    expect((await listOf(t, token, patient.id)).status).toBe(404);
    const crafted = await t.app.inject({
      method: 'GET',
      url: `/api/user/${encodeURIComponent(`${patient.id}|${patient.id}`)}/images?limit=50&cursor=${encodeURIComponent('a|b')}`,
      headers: bearer(token),
    });
    expect(crafted.statusCode).toBeGreaterThanOrEqual(400);
    expect(crafted.statusCode).toBeLessThan(500);
  });

  it('audits every read, served from the cache or not', async () => {
    const count = async () =>
      Number(
        (
          (await exec(
            `select count(*)::int as n from audit_log where actor_id = $1 and record_type = 'image-list'`,
            [patient.id],
          )) as { rows: { n: number }[] }
        ).rows[0]!.n,
      );
    await listOf(t, patient.token, patient.id);
    const before = await count();
    await listOf(t, patient.token, patient.id);
    await listOf(t, patient.token, patient.id);
    expect(await soon(async () => (await count()) === before + 2)).toBe(true);
  });
});

describe('the database announces every change a list shows (migration 0013)', () => {
  const heard: string[] = [];
  let stop: () => Promise<void>;
  beforeAll(async () => {
    stop = await t.database.listen(['ra_changed_archive'], {
      onMessage: (_channel, payload) => heard.push(payload),
      onLost: () => undefined,
      onRestored: () => undefined,
    });
  });
  afterAll(() => stop());

  async function announces(write: () => Promise<unknown>, expected: string): Promise<boolean> {
    heard.length = 0;
    await write();
    return soon(async () => Promise.resolve(heard.includes(expected)));
  }

  it('for items, their study, notes and invoices, links to physicians, and names', async () => {
    const owner = await createPatient(t.database.db);
    const radiologist = await createRadiologist(t.database.db);
    const item = (
      (await exec(
        `insert into archive_items (patient_id, uploader_id, storage_key, content_type, size, width, height)
         values ($1, $2, 'announce/' || gen_random_uuid(), 'image/png', 1, 1, 1) returning id`,
        [owner.id, physician.id],
      )) as { rows: { id: string }[] }
    ).rows[0]!.id;
    const writes: [string, () => Promise<unknown>, string][] = [
      ['an item', () => exec(`update archive_items set width = 2 where id = $1`, [item]), owner.id],
      [
        'a study',
        () =>
          exec(`insert into studies (item_id, namespace_id, study_instance_uid) values ($1, $2, $3)`, [
            item,
            owner.id,
            `1.2.3.${Date.now()}`,
          ]),
        owner.id,
      ],
      [
        'a note',
        () =>
          exec(
            `insert into item_notes (item_id, author_id, author_role, note) values ($1, $2, 'PHYSICIAN', 'n')`,
            [item, physician.id],
          ),
        owner.id,
      ],
      [
        'an invoice',
        () =>
          exec(
            `insert into invoices (patient_id, radiologist_id, item_id, amount_cents, provider, url)
             values ($1, $2, $3, 100, 'sandbox', 'https://pay.example/1')`,
            [owner.id, radiologist.id, item],
          ),
        owner.id,
      ],
      ['a link to a physician', () => linkPatient(t.database.db, owner.id, physician.id), owner.id],
      // A name shows on any number of patients' items: every patient is announced (no key).
      ['a name', () => exec(`update users set first_name = 'Other' where id = $1`, [radiologist.id]), ''],
      ['an item deleted', () => exec(`delete from archive_items where id = $1`, [item]), owner.id],
    ];
    for (const [label, write, expected] of writes) {
      expect({ label, announced: await announces(write, expected) }).toEqual({ label, announced: true });
    }
    // Columns no list shows announce nothing.
    heard.length = 0;
    await exec(`update users set bio = 'quiet' where id = $1`, [radiologist.id]);
    await exec(`select pg_notify('ra_changed_archive', 'marker')`);
    expect(await soon(async () => Promise.resolve(heard.includes('marker')))).toBe(true);
    expect(heard).toEqual(['marker']);
  });
});

describe.runIf(Boolean(process.env.TEST_DATABASE_URL))('two instances on one PostgreSQL', () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp({}, { besides: t, isWorkingJobs: false });
  });
  afterAll(() => other.close());

  it("an upload through one instance is in the other's cached list at once", async () => {
    const before = (await listOf(t, patient.token, patient.id)).page.images.length;
    const uid = await upload(other, patient.id, 'Through the other instance');
    expect(
      await soon(async () =>
        (await listOf(t, patient.token, patient.id)).page.images.some((image) => image.uid === uid),
      ),
    ).toBe(true);
    expect((await listOf(t, patient.token, patient.id)).page.images).toHaveLength(before + 1);
  });
});
