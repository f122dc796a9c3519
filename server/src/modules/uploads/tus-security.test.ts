import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { createPhysician, signIn } from '../../../test/factories.js';
import { createUpload, patchUpload, tusRequest } from '../../../test/uploads.js';
import { loggableError } from './tus-errors.js';

let t: TestApp;
let victimToken: string;
let attackerToken: string;
beforeAll(async () => {
  t = await createTestApp();
  victimToken = (await signIn(t.app, (await createPhysician(t.database.db)).email)).token;
  attackerToken = (await signIn(t.app, (await createPhysician(t.database.db)).email)).token;
});
afterAll(() => t.close());

const idOf = (url: string) => url.split('/').pop()!;

async function newUpload(token: string, size = 100) {
  const created = await createUpload(t.app, token, { size });
  expect(created.statusCode).toBe(201);
  return created.headers.location as string;
}

describe('an upload id smuggled past the ownership check', () => {
  const forms: [string, (own: string, victim: string) => string][] = [
    ['a query string with a slash', (own, victim) => `/api/uploads/${own}?x=/${victim}`],
    ['a bare query string', (own, victim) => `/api/uploads/${own}?/${victim}`],
    ['a matrix parameter', (own, victim) => `/api/uploads/${own};/${victim}`],
    ['an encoded slash', (own, victim) => `/api/uploads/${own}%2F${victim}`],
    ['an encoded slash, lower case', (own, victim) => `/api/uploads/${own}%2f..%2f${victim}`],
    ['an encoded question mark', (own, victim) => `/api/uploads/${own}%3F/${victim}`],
    ['dot segments', (own, victim) => `/api/uploads/${own}/../${victim}`],
    ['a backslash', (own, victim) => `/api/uploads/${own}\\${victim}`],
  ];

  for (const [name, form] of forms) {
    it(`never reaches the victim's upload through ${name}`, async () => {
      const victimUrl = await newUpload(victimToken);
      const victim = idOf(victimUrl);
      const own = idOf(await newUpload(attackerToken));
      const url = form(own, victim);

      const patched = await patchUpload(t.app, attackerToken, url, 0, Buffer.alloc(10, 1));
      expect(patched.statusCode).toBeGreaterThanOrEqual(400);
      expect(patched.statusCode).toBeLessThan(500);
      const head = await tusRequest(t.app, 'HEAD', url, attackerToken);
      expect(head.statusCode).toBeGreaterThanOrEqual(400);
      expect(head.statusCode).toBeLessThan(500);
      expect(head.headers['upload-offset']).toBeUndefined();
      const removed = await tusRequest(t.app, 'DELETE', url, attackerToken);
      expect(removed.statusCode).toBeGreaterThanOrEqual(400);
      expect(removed.statusCode).toBeLessThan(500);

      // The victim's upload is untouched: still there, still at offset 0.
      const victimHead = await tusRequest(t.app, 'HEAD', victimUrl, victimToken);
      expect(victimHead.statusCode).toBe(200);
      expect(victimHead.headers['upload-offset']).toBe('0');
      expect(fs.statSync(path.join(t.app.ctx.tusDir, victim)).size).toBe(0);
    });
  }

  it('refuses a query string even on the caller’s own upload, before tus reads it', async () => {
    const url = await newUpload(attackerToken);
    const patched = await patchUpload(t.app, attackerToken, `${url}?x=1`, 0, Buffer.alloc(10, 1));
    expect(patched.statusCode).toBe(404);
    expect(patched.json()).toEqual({ error: 'Not found.' });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/uploads?x=/y',
      headers: { authorization: `Bearer ${attackerToken}`, 'tus-resumable': '1.0.0', 'upload-length': '10' },
    });
    expect(created.statusCode).toBe(404);
    expect((await tusRequest(t.app, 'HEAD', url, attackerToken)).headers['upload-offset']).toBe('0');
  });
});

describe('OPTIONS /api/uploads (tus discovery)', () => {
  it('answers without sign-in with the version, extensions and maximum size', async () => {
    const response = await t.app.inject({ method: 'OPTIONS', url: '/api/uploads' });
    expect(response.statusCode).toBe(204);
    expect(response.headers['tus-version']).toBe('1.0.0');
    expect(String(response.headers['tus-extension']).split(',').sort()).toEqual([
      'creation',
      'creation-with-upload',
      'expiration',
      'termination',
    ]);
    expect(response.headers['tus-max-size']).toBe(String(2 * 1024 ** 3));
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('grants CORS to the app’s own origin only', async () => {
    const foreign = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/uploads',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.headers['access-control-allow-credentials']).toBeUndefined();
    const own = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/uploads',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'POST' },
    });
    expect(own.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });
});

describe('error answers of the tus server', () => {
  it('answers a wrong Upload-Offset with 409 in the contract’s shape', async () => {
    const url = await newUpload(attackerToken);
    const response = await patchUpload(t.app, attackerToken, url, 5, Buffer.alloc(10, 1));
    expect(response.statusCode).toBe(409);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      success: false,
      msg: 'The upload offset does not match the bytes received so far. Ask for the current offset and resume from there.',
    });
  });

  it('answers malformed tus requests in the 400 shape and unknown uploads with 404', async () => {
    const url = await newUpload(attackerToken);
    const noVersion = await t.app.inject({
      method: 'PATCH',
      url,
      headers: {
        authorization: `Bearer ${attackerToken}`,
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      payload: Buffer.alloc(1),
    });
    expect(noVersion.statusCode).toBe(412);
    expect(noVersion.json()).toEqual({
      errors: [{ msg: 'The Tus-Resumable header must be 1.0.0.', path: 'upload' }],
    });
    const badOffset = await t.app.inject({
      method: 'PATCH',
      url,
      headers: {
        authorization: `Bearer ${attackerToken}`,
        'tus-resumable': '1.0.0',
        'upload-offset': 'zero',
        'content-type': 'application/offset+octet-stream',
      },
      payload: Buffer.alloc(1),
    });
    expect(badOffset.statusCode).toBe(400);
    expect(badOffset.json()).toEqual({
      errors: [{ msg: 'The upload request is not valid.', path: 'upload' }],
    });
    const deferred = await t.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        authorization: `Bearer ${attackerToken}`,
        'tus-resumable': '1.0.0',
        'upload-defer-length': '1',
      },
    });
    expect(deferred.statusCode).toBe(400);
    expect(deferred.json().errors[0].msg).toEqual(expect.any(String));

    const unknown = await patchUpload(
      t.app,
      attackerToken,
      `/api/uploads/${crypto.randomUUID()}`,
      0,
      Buffer.alloc(1),
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Not found.' });
  });

  it('answers an internal failure with the generic 500 body, never the database’s message', async () => {
    const broken = await createTestApp();
    try {
      const token = (await signIn(broken.app, (await createPhysician(broken.database.db)).email)).token;
      await broken.database.db.execute(sql`alter table uploads rename to uploads_elsewhere`);
      const response = await createUpload(broken.app, token, { size: 100, filename: 'secret-name.png' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: 'Something went wrong.' });
    } finally {
      await broken.database.db.execute(sql`alter table uploads_elsewhere rename to uploads`);
      await broken.close();
    }
  });

  it('logs a failed query without its SQL parameters', async () => {
    const err: unknown = await t.database.db
      .execute(sql`select ${'secret-file-name.png'}::integer`)
      .catch((error: unknown) => error);
    expect(err).toBeInstanceOf(Error);
    const logged = JSON.stringify(loggableError(err));
    expect(logged).not.toContain('secret-file-name');
    expect(logged).toContain('22P02');
  });
});
