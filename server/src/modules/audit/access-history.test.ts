import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
} from '../../../test/factories.js';
import { uploadImageFor } from '../../../test/uploads.js';
import { linkPatient } from '../patients/patients.repository.js';

let t: TestApp;
type Person = { id: string; token: string };
let physician: Person;
let patient: Person;
let otherPatient: Person;
let imageUid: string;
let otherImageUid: string;

function uploadFor(patientId: string): Promise<string> {
  return uploadImageFor(t.app, physician.token, patientId);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const doctor = await createPhysician(db, { firstName: 'Phil', lastName: 'Doc' });
  const person = await createPatient(db);
  const other = await createPatient(db);
  await linkPatient(db, person.id, doctor.id);
  await linkPatient(db, other.id, doctor.id);
  physician = { id: doctor.id, token: (await signIn(t.app, doctor.email)).token };
  patient = { id: person.id, token: (await signIn(t.app, person.email)).token };
  otherPatient = { id: other.id, token: (await signIn(t.app, other.email)).token };
  imageUid = await uploadFor(patient.id);
  otherImageUid = await uploadFor(otherPatient.id);
});
afterAll(() => t.close());

function get(url: string, token?: string) {
  return t.app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });
}

const history = (token: string, query = '') => get(`/api/user/access-history${query}`, token);

describe('GET /api/user/access-history', () => {
  it('is for patients only', async () => {
    expect((await get('/api/user/access-history')).statusCode).toBe(401);
    const radiologist = await createRadiologist(t.database.db);
    for (const token of [physician.token, (await signIn(t.app, radiologist.email)).token]) {
      const response = await history(token);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'You are not authorized to make this request.' });
    }
  });

  it('leaves out the patient’s own reads', async () => {
    await get(`/api/image/${imageUid}`, patient.token);
    await get(`/api/user/${patient.id}/images`, patient.token);
    await get('/api/user/profile', patient.token);
    const response = await history(patient.token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ entries: [], next_cursor: null });
  });

  it('shows who else looked, newest first, and nothing of other patients', async () => {
    const image = (await get(`/api/image/${imageUid}`, physician.token)).json().image;
    await get('/api/user/patients', physician.token);
    expect((await get(image.url)).statusCode).toBe(200);
    await get(`/api/image/${otherImageUid}`, physician.token);

    const entries = (await history(patient.token)).json().entries;
    const actor = { uid: physician.id, role: 'PHYSICIAN', full_name: 'Dr. Phil Doc' };
    // Each entry names its item as the patient sees it.
    const item = { kind: 'image', study: null, createdAt: image.createdAt, physician_note: 'n' };
    const who = { kind: 'account', label: 'Dr. Phil Doc' };
    const by = { at: expect.any(String), actor, via: 'account', who };
    expect(entries).toEqual([
      { ...by, action: 'download', item_uid: imageUid, item },
      { ...by, action: 'list', item_uid: null, item: null },
      { ...by, action: 'view', item_uid: imageUid, item },
    ]);
    const times = entries.map((entry: { at: string }) => entry.at);
    expect([...times].sort().reverse()).toEqual(times);

    const theirs = (await history(otherPatient.token)).json().entries;
    expect(theirs.map((entry: { action: string; item_uid: string | null }) => entry.item_uid)).not.toContain(
      imageUid,
    );
    expect(theirs).toContainEqual(expect.objectContaining({ action: 'view', item_uid: otherImageUid }));
  });

  it('pages with limit and an opaque cursor', async () => {
    for (let i = 0; i < 3; i += 1) {
      await get(`/api/user/${patient.id}/images`, physician.token);
    }
    const all = (await history(patient.token)).json();
    expect(all.next_cursor).toBeNull();
    expect(all.entries.length).toBeGreaterThanOrEqual(6);

    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = (await history(patient.token, query)).json();
      expect(page.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.entries);
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.entries);

    const bad = await history(patient.token, '?cursor=nope');
    expect(bad.statusCode).toBe(400);
    expect((await history(patient.token, '?limit=201')).statusCode).toBe(400);
  });
});
