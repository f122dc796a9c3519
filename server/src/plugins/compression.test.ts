import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn, TEST_PASSWORD } from '../../test/factories.js';
import { uploadImageFor } from '../../test/uploads.js';
import { linkPatient } from '../modules/patients/patients.repository.js';

let t: TestApp;
let patient: { id: string; email: string; token: string };

beforeAll(async () => {
  // No thumbnail job runs: the list must not change between the three reads compared.
  t = await createTestApp({}, { isWorkingJobs: false });
  const doctor = await createPhysician(t.database.db);
  const person = await createPatient(t.database.db);
  await linkPatient(t.database.db, person.id, doctor.id);
  const physicianToken = (await signIn(t.app, doctor.email)).token;
  for (let i = 0; i < 3; i += 1) {
    await uploadImageFor(t.app, physicianToken, person.id);
  }
  patient = { id: person.id, email: person.email, token: (await signIn(t.app, person.email)).token };
});
afterAll(() => t.close());

function get(url: string, acceptEncoding?: string) {
  return t.app.inject({
    method: 'GET',
    url,
    headers: { ...bearer(patient.token), ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}) },
  });
}

describe('compression of API answers', () => {
  it('sends a large JSON answer as brotli or gzip by negotiation, the same JSON once decompressed', async () => {
    const url = `/api/user/${patient.id}/images`;
    const plain = await get(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await get(url, 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const fromBr = JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString());

    const gzip = await get(url, 'gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const fromGzip = JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString());

    // Equal but for the signatures of file URLs, which change when a five-minute step ends between requests.
    const unsigned = (body: unknown) => JSON.parse(JSON.stringify(body).replace(/\?[^"]*/g, ''));
    expect(unsigned(fromBr)).toEqual(unsigned(plain.json()));
    expect(unsigned(fromGzip)).toEqual(unsigned(plain.json()));
  });

  it('leaves small answers, sign-in answers and stored files uncompressed', async () => {
    expect((await get('/api/user/me', 'br')).headers['content-encoding']).toBeUndefined();
    const signin = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      headers: { 'accept-encoding': 'br, gzip' },
      payload: { email: patient.email, password: TEST_PASSWORD },
    });
    expect(signin.statusCode).toBe(200);
    expect(signin.headers['content-encoding']).toBeUndefined();
    const image = (await get(`/api/user/${patient.id}/images`)).json().images[0];
    const file = await get(image.url, 'br, gzip');
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-encoding']).toBeUndefined();
  });
});
