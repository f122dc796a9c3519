import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { bearer, createPhysician, signIn, uniqueEmail } from '../../test/factories.js';
import { insertUser } from '../modules/identity/identity.repository.js';
import { serializeError } from '../lib/log-redaction.js';
import { PassThrough } from 'node:stream';
import { findNul } from './input-guards.js';

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  const physician = await createPhysician(t.database.db);
  token = (await signIn(t.app, physician.email)).token;
});
afterAll(() => t.close());

const someUid = crypto.randomUUID();

/** Every route that takes a JSON body, with a body whose text fields are otherwise acceptable. */
const bodyRoutes: { method: InjectOptions['method']; url: string; body: Record<string, unknown> }[] = [
  {
    method: 'POST',
    url: '/api/auth/signup',
    body: {
      email: 'a@example.test',
      password: 'long enough',
      dob: '1990-01-01',
      first_name: 'A',
      last_name: 'B',
      role: 'PATIENT',
    },
  },
  { method: 'POST', url: '/api/auth/signin', body: { email: 'a@example.test', password: 'long enough' } },
  { method: 'POST', url: '/api/auth/portal/patient', body: { email: 'a@example.test' } },
  { method: 'POST', url: '/api/auth/reset-password', body: { email: 'a@example.test' } },
  {
    method: 'POST',
    url: '/api/auth/reset-password/confirm',
    body: { token: 'abc', password: 'long enough' },
  },
  {
    method: 'POST',
    url: '/api/auth/add-patient',
    body: { email: 'a@example.test', dob: '1990-01-01', first_name: 'A', last_name: 'B' },
  },
  { method: 'POST', url: '/api/user/rate', body: { uid: someUid, rating: 3 } },
  { method: 'PUT', url: '/api/user/profile', body: { bio: 'text' } },
  { method: 'PUT', url: '/api/user/email', body: { email: 'a@example.test', password: 'long enough' } },
  {
    method: 'POST',
    url: '/api/user/upload-image',
    body: { patient: someUid, notes: 'text', url: `/api/uploads/${someUid}` },
  },
  { method: 'POST', url: `/api/payment/${someUid}/invoice`, body: { image: someUid } },
  { method: 'PATCH', url: `/api/image/${someUid}`, body: { note: 'text' } },
  { method: 'PUT', url: `/api/image/${someUid}`, body: { note: 'text' } },
  { method: 'PUT', url: '/api/notification/read', body: { read: [someUid] } },
];

/** Every route with a path parameter. */
const paramRoutes: { method: InjectOptions['method']; url: (param: string) => string }[] = [
  { method: 'POST', url: (p) => `/api/auth/portal/${p}` },
  { method: 'GET', url: (p) => `/api/user/${p}/images` },
  { method: 'HEAD', url: (p) => `/api/uploads/${p}` },
  { method: 'PATCH', url: (p) => `/api/uploads/${p}` },
  { method: 'DELETE', url: (p) => `/api/uploads/${p}` },
  { method: 'GET', url: (p) => `/api/profile-pictures/${p}` },
  { method: 'GET', url: (p) => `/api/payment/invoices/${p}` },
  { method: 'POST', url: (p) => `/api/payment/invoices/${p}/cancel` },
  { method: 'POST', url: (p) => `/api/payment/sandbox/${p}/pay` },
  { method: 'POST', url: (p) => `/api/payment/${p}/invoice` },
  { method: 'GET', url: (p) => `/api/image/${p}` },
  { method: 'PATCH', url: (p) => `/api/image/${p}` },
];

function call(method: InjectOptions['method'], url: string, payload?: string) {
  return t.app.inject({
    method,
    url,
    headers: { ...bearer(token), ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    payload,
  });
}

describe('the NUL search', () => {
  it('leaves a streamed body (STOW-RS) to its route, however it refers to itself', () => {
    const body = Object.assign(new PassThrough(), { name: 'x\u0000' });
    Object.assign(body, { self: body });
    expect(findNul({ ok: 'fine', nested: ['a\u0000'] })).toBe('nested.0');
    expect(findNul(body)).toBeUndefined();
  });
});

describe('input guards', () => {
  it.each(bodyRoutes)('refuses a NUL byte in any text field of $method $url with 400', async (route) => {
    for (const [field, value] of Object.entries(route.body)) {
      if (typeof value !== 'string') {
        continue;
      }
      const body = { ...route.body, [field]: `${value.slice(0, 1)}\u0000${value.slice(1)}` };
      const response = await call(route.method, route.url, JSON.stringify(body));
      expect(response.statusCode, `${field}: ${response.body}`).toBe(400);
      expect(response.json()).toEqual({
        errors: [{ msg: 'Text must not contain NUL characters.', path: field }],
      });
    }
  });

  it.each(bodyRoutes)('refuses a body that is not a JSON object on $method $url with 400', async (route) => {
    for (const payload of ['null', '[]', '"text"', '42', 'true']) {
      const response = await call(route.method, route.url, payload);
      expect(response.statusCode, payload).toBe(400);
      expect(response.json()).toEqual({
        errors: [{ msg: 'The request body must be a JSON object.', path: '' }],
      });
    }
  });

  it.each(bodyRoutes)(
    'refuses a body nested deeper than 32 levels on $method $url with 400',
    async (route) => {
      for (const depth of [33, 5000]) {
        const payload = `${'['.repeat(depth)}${']'.repeat(depth)}`;
        const response = await call(route.method, route.url, `{"deep":${payload}}`);
        expect(response.statusCode, String(depth)).toBe(400);
        expect(response.json()).toEqual({
          errors: [{ msg: 'The request body is nested too deeply.', path: '' }],
        });
      }
      // Brackets inside strings are text, not nesting.
      const inString = await call(route.method, route.url, JSON.stringify({ text: '['.repeat(100) }));
      expect(inString.json()).not.toEqual({
        errors: [{ msg: 'The request body is nested too deeply.', path: '' }],
      });
    },
  );

  it('refuses a NUL byte in a query string or path parameter', async () => {
    const inQuery = await call('GET', '/api/user/patients?cursor=a%00b');
    expect(inQuery.statusCode).toBe(400);
    expect(inQuery.json()).toEqual({
      errors: [{ msg: 'Text must not contain NUL characters.', path: 'cursor' }],
    });
    const inPath = await call('GET', '/api/image/a%00b');
    expect(inPath.statusCode).toBe(400);
  });

  it.each(paramRoutes)(
    'answers an over-long path parameter of $method with the contract 404',
    async (route) => {
      const response = await call(route.method, route.url('x'.repeat(5000)));
      expect(response.statusCode).toBe(404);
      if (route.method !== 'HEAD') {
        expect(response.json()).toEqual({ error: 'Not found.' });
      }
      expect(response.body).not.toContain('FST_');
      expect(response.body).not.toContain('xxxx');
    },
  );
});

describe('error logging', () => {
  it('never logs the parameters or values of a failed database query', async () => {
    const email = uniqueEmail('secret-person');
    await insertUser(t.database.db, {
      email,
      passwordHash: 'hash-that-must-not-leak',
      role: 'PATIENT',
      firstName: 'Secret',
      lastName: 'Person',
      dob: '1990-01-01',
    });
    let caught: unknown;
    try {
      // A uuid column given an email: the database's message quotes the value.
      await t.database.db.execute(
        (await import('drizzle-orm')).sql`select * from users where id = ${email}::uuid`,
      );
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeDefined();
    const logged = JSON.stringify(serializeError(caught));
    expect(logged).not.toContain(email);
    expect(logged).not.toContain('secret-person');
    expect(logged).toContain('22P02');
  });
});
