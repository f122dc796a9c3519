import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../test/factories.js';
import { uploadImageFor } from '../../test/uploads.js';
import { linkPatient } from '../modules/patients/patients.repository.js';
import { notify } from '../modules/notifications/notifications.service.js';

let t: TestApp;
let physician: { id: string; token: string };
let patient: { id: string; token: string };
let imageUid: string;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const doctor = await createPhysician(db);
  const person = await createPatient(db);
  await linkPatient(db, person.id, doctor.id);
  physician = { id: doctor.id, token: (await signIn(t.app, doctor.email)).token };
  patient = { id: person.id, token: (await signIn(t.app, person.email)).token };
  imageUid = await uploadImageFor(t.app, physician.token, patient.id);
});
afterAll(() => t.close());

function get(url: string, token?: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers: { ...(token ? bearer(token) : {}), ...headers } });
}

describe('Cache-Control', () => {
  it('is no-store on every answer that carries patient data, files included', async () => {
    const answers = [
      await get('/api/user/me', patient.token),
      await get('/api/user/profile', patient.token),
      await get(`/api/user/${patient.id}/images`, patient.token),
      await get(`/api/image/${imageUid}`, patient.token),
      await get('/api/user/patients', physician.token),
      await get('/api/payment/invoices', patient.token),
      await get('/api/notification/unread-count', patient.token),
      // Refusals too: nothing under /api is cacheable unless a route says so.
      await get(`/api/image/${imageUid}`),
    ];
    for (const answer of answers) {
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    const image = (await get(`/api/image/${imageUid}`, patient.token)).json().image;
    const file = await get(image.url);
    expect(file.statusCode).toBe(200);
    expect(file.headers['cache-control']).toBe('no-store');
  });

  it('is no-store on notifications, whose ETag still answers 304', async () => {
    await notify(t.database.db, { userId: patient.id, message: 'Hello.', to: null });
    const listed = await get('/api/notification/polling', patient.token);
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['cache-control']).toBe('no-store');
    const idle = await get('/api/notification/polling', patient.token, {
      'if-none-match': listed.headers.etag as string,
    });
    expect(idle.statusCode).toBe(304);
    expect(idle.headers['cache-control']).toBe('no-store');
  });

  it('lets the hospital list be stored but revalidated by ETag, never the radiologists (ratings must show at once)', async () => {
    const hospitals = await get('/api/hospital/hospitals');
    expect(hospitals.headers['cache-control']).toBe('public, no-cache');
    const etag = hospitals.headers.etag as string;
    expect(etag).toMatch(/^"h[\w-]+"$/);
    const revalidated = await get('/api/hospital/hospitals', undefined, { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect((await get('/api/hospital/hospitals', undefined, { 'if-none-match': '"h-old"' })).statusCode).toBe(
      200,
    );
    for (const url of ['/api/user/radiologists', '/api/user/meet-our-radiologists']) {
      const answer = await get(url);
      expect(answer.statusCode).toBe(200);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });
});
