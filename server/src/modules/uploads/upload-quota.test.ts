import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { linkPatient } from '../patients/patients.repository.js';
import { createUpload, patchUpload, pngImage, tusRequest } from '../../../test/uploads.js';

async function physicianToken(t: TestApp) {
  return (await signIn(t.app, (await createPhysician(t.database.db)).email)).token;
}

function expectTooMany(response: Awaited<ReturnType<typeof createUpload>>) {
  expect(response.statusCode).toBe(429);
  expect(response.json()).toEqual({ error: 'Too many requests. Try again later.' });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

describe('the pending-uploads quota (UPLOAD_MAX_PENDING=2)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_MAX_PENDING: '2' });
  });
  afterAll(() => t.close());

  it('refuses a third unfinished upload, and counts each user apart', async () => {
    const token = await physicianToken(t);
    expect((await createUpload(t.app, token, { size: 100 })).statusCode).toBe(201);
    expect((await createUpload(t.app, token, { size: 100 })).statusCode).toBe(201);
    expectTooMany(await createUpload(t.app, token, { size: 100 }));
    expect((await createUpload(t.app, await physicianToken(t), { size: 100 })).statusCode).toBe(201);
  });

  it('frees a place when an upload finishes or is terminated', async () => {
    const token = await physicianToken(t);
    const file = await pngImage(20, 20);
    const first = (await createUpload(t.app, token, { size: file.length })).headers.location as string;
    const second = (await createUpload(t.app, token, { size: 100 })).headers.location as string;
    expectTooMany(await createUpload(t.app, token, { size: 100 }));

    expect((await patchUpload(t.app, token, first, 0, file)).statusCode).toBe(204);
    const third = await createUpload(t.app, token, { size: 100 });
    expect(third.statusCode).toBe(201);
    expectTooMany(await createUpload(t.app, token, { size: 100 }));

    expect((await tusRequest(t.app, 'DELETE', second, token)).statusCode).toBe(204);
    expect((await createUpload(t.app, token, { size: 100 })).statusCode).toBe(201);
  });

  it('frees a place once an upload is finished and claimed', async () => {
    const physician = await createPhysician(t.database.db);
    const patient = await createPatient(t.database.db);
    await linkPatient(t.database.db, patient.id, physician.id);
    const token = (await signIn(t.app, physician.email)).token;
    const file = await pngImage(30, 30);
    const url = (await createUpload(t.app, token, { size: file.length })).headers.location as string;
    expect((await createUpload(t.app, token, { size: 100 })).statusCode).toBe(201);
    expectTooMany(await createUpload(t.app, token, { size: 100 }));

    expect((await patchUpload(t.app, token, url, 0, file)).statusCode).toBe(204);
    const claimed = await t.app.inject({
      method: 'POST',
      url: '/api/user/upload-image',
      headers: bearer(token),
      payload: { patient: patient.id, notes: 'Fine.', url },
    });
    expect(claimed.statusCode).toBe(201);
    expect((await createUpload(t.app, token, { size: 100 })).statusCode).toBe(201);
    expectTooMany(await createUpload(t.app, token, { size: 100 }));
  });
});

describe('the pending-bytes quota (UPLOAD_MAX_PENDING_GB as a fraction)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // 0.000001 GiB is 1,074 bytes.
    t = await createTestApp({ UPLOAD_MAX_PENDING_GB: '0.000001' });
  });
  afterAll(() => t.close());

  it('refuses an upload that would take the declared unfinished bytes over the limit', async () => {
    const token = await physicianToken(t);
    const file = await pngImage(10, 10);
    expect(file.length).toBeLessThan(1000);
    const first = (await createUpload(t.app, token, { size: 1000 })).headers.location as string;
    expectTooMany(await createUpload(t.app, token, { size: 100 }));
    expect((await tusRequest(t.app, 'DELETE', first, token)).statusCode).toBe(204);
    expect((await createUpload(t.app, token, { size: 100 })).statusCode).toBe(201);
  });
});

describe('the creation rate (UPLOAD_CREATE_PER_MINUTE=3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ UPLOAD_CREATE_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('refuses the fourth creation within a minute, even when the others finished', async () => {
    const token = await physicianToken(t);
    const file = await pngImage(10, 10);
    for (let i = 0; i < 3; i += 1) {
      const created = await createUpload(t.app, token, { size: file.length, body: file });
      expect(created.statusCode).toBe(201);
    }
    expectTooMany(await createUpload(t.app, token, { size: file.length }));
  });
});
