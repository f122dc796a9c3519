import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, createPhysician, signIn } from '../../../test/factories.js';
import { createUpload, patchUpload, pngImage } from '../../../test/uploads.js';
import { findUpload } from './uploads.repository.js';

let t: TestApp;
let physicianToken: string;
let patientToken: string;
beforeAll(async () => {
  t = await createTestApp();
  physicianToken = (await signIn(t.app, (await createPhysician(t.database.db)).email)).token;
  patientToken = (await signIn(t.app, (await createPatient(t.database.db)).email)).token;
});
afterAll(() => t.close());

const idOf = (url: string) => url.split('/').pop()!;

describe('tus uploads at /api/uploads', () => {
  it('needs a signed-in caller', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: { 'tus-resumable': '1.0.0', 'upload-length': '10' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'There was an error with your request.' });
  });

  it('refuses image uploads from patients, unknown purposes and files over the limit', async () => {
    expect((await createUpload(t.app, patientToken, { size: 100 })).statusCode).toBe(403);
    const noPurpose = await createUpload(t.app, physicianToken, { size: 100, purpose: '' });
    expect(noPurpose.statusCode).toBe(400);
    expect(noPurpose.body).toContain(
      'Upload purpose must be image, profile, dicom, dicom-zip or dicom-bundle.',
    );
    const tooLarge = await createUpload(t.app, patientToken, {
      size: 10 * 1024 * 1024 + 1,
      purpose: 'profile',
    });
    expect(tooLarge.statusCode).toBe(413);
    const overall = await createUpload(t.app, physicianToken, { size: 2 * 1024 ** 3 + 1 });
    expect(overall.statusCode).toBe(413);
  });

  it('answers 404 for another user’s upload', async () => {
    const created = await createUpload(t.app, physicianToken, { size: 1000 });
    expect(created.statusCode).toBe(201);
    const url = created.headers.location as string;
    expect(url).toMatch(/^\/api\/uploads\/[0-9a-f-]{36}$/);
    const other = await createPhysician(t.database.db);
    const otherToken = (await signIn(t.app, other.email)).token;
    const head = await t.app.inject({
      method: 'HEAD',
      url,
      headers: { ...bearer(otherToken), 'tus-resumable': '1.0.0' },
    });
    expect(head.statusCode).toBe(404);
    expect((await patchUpload(t.app, otherToken, url, 0, Buffer.alloc(10))).statusCode).toBe(404);
    const remove = await t.app.inject({
      method: 'DELETE',
      url,
      headers: { ...bearer(otherToken), 'tus-resumable': '1.0.0' },
    });
    expect(remove.statusCode).toBe(404);
  });

  it('resumes an interrupted upload into a byte-identical file with its real type and size', async () => {
    const file = await pngImage(640, 480);
    const created = await createUpload(t.app, physicianToken, { size: file.length });
    const url = created.headers.location as string;
    expect(created.headers['upload-expires']).toBeDefined();

    const half = Math.floor(file.length / 2);
    expect((await patchUpload(t.app, physicianToken, url, 0, file.subarray(0, half))).statusCode).toBe(204);
    // The client lost track; it asks where to resume.
    const head = await t.app.inject({
      method: 'HEAD',
      url,
      headers: { ...bearer(physicianToken), 'tus-resumable': '1.0.0' },
    });
    expect(head.statusCode).toBe(200);
    const offset = Number(head.headers['upload-offset']);
    expect(offset).toBe(half);
    expect((await patchUpload(t.app, physicianToken, url, offset, file.subarray(offset))).statusCode).toBe(
      204,
    );

    const stored = fs.readFileSync(path.join(t.app.ctx.tusDir, idOf(url)));
    expect(stored.equals(file)).toBe(true);
    expect(await findUpload(t.database.db, idOf(url))).toMatchObject({
      contentType: 'image/png',
      width: 640,
      height: 480,
      finishedAt: expect.any(Date),
    });
  });

  it('accepts a small file in the creation request', async () => {
    const file = await pngImage(20, 20);
    const created = await createUpload(t.app, physicianToken, { size: file.length, body: file });
    expect(created.statusCode).toBe(201);
    expect(Number(created.headers['upload-offset'])).toBe(file.length);
  });

  it('refuses a file that is not an image and deletes it', async () => {
    const file = Buffer.from('%PDF-1.7 pretending to be a scan '.repeat(20));
    const created = await createUpload(t.app, physicianToken, { size: file.length });
    const url = created.headers.location as string;
    const patched = await patchUpload(t.app, physicianToken, url, 0, file);
    expect(patched.statusCode).toBe(415);
    expect(patched.body).toContain('The file is not a supported image.');
    expect(fs.existsSync(path.join(t.app.ctx.tusDir, idOf(url)))).toBe(false);
  });
});
