import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { bearer, createPhysician, signIn, uniqueEmail } from '../../test/factories.js';
import { auditLog } from '../db/schema/audit.js';

/** Adds a new patient and returns the client IP the server wrote into that change's audit row. */
async function auditedIp(
  t: TestApp,
  request: { headers?: Record<string, string>; remoteAddress?: string },
): Promise<string | null> {
  const physician = await createPhysician(t.database.db);
  const { token } = await signIn(t.app, physician.email);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/add-patient',
    headers: { ...bearer(token), ...request.headers },
    ...(request.remoteAddress ? { remoteAddress: request.remoteAddress } : {}),
    payload: { email: uniqueEmail('proxied'), first_name: 'Pat', last_name: 'Proxy', dob: '1990-01-01' },
  });
  expect(response.statusCode).toBe(201);
  const [row] = await t.database.db.select().from(auditLog).where(eq(auditLog.actorId, physician.id));
  return row?.ip ?? null;
}

const forged = { 'x-forwarded-for': '6.6.6.6, 7.7.7.7', 'x-forwarded-proto': 'https' };

describe('TRUST_PROXY=0 (the default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Said outright: test-app.ts's proxy mode otherwise trusts its HAProxy (which then changes nothing here).
    t = await createTestApp({ TRUST_PROXY: '0' });
  });
  afterAll(() => t.close());

  it('ignores X-Forwarded-* headers', async () => {
    expect(await auditedIp(t, { headers: forged })).toBe('127.0.0.1');
    const health = await t.app.inject({ method: 'GET', url: '/api/health', headers: forged });
    expect(health.headers['strict-transport-security']).toBeUndefined();
  });
});

describe('TRUST_PROXY=1', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Direct in proxy mode too: the test plays the proxy, writing X-Forwarded-* and the socket's address.
    t = await createTestApp({ TRUST_PROXY: '1' }, { proxied: false });
  });
  afterAll(() => t.close());

  it('takes the address our one proxy added, not what the client wrote before it', async () => {
    expect(await auditedIp(t, { headers: forged })).toBe('7.7.7.7');
  });

  it('takes https from the proxy for HSTS', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health', headers: forged });
    expect(health.headers['strict-transport-security']).toContain('max-age=');
  });
});

describe('TRUST_PROXY as a list of proxy addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Direct in proxy mode too: the test plays the proxy, writing X-Forwarded-* and the socket's address.
    t = await createTestApp({ TRUST_PROXY: '10.0.0.0/8,127.0.0.1' }, { proxied: false });
  });
  afterAll(() => t.close());

  it('honours the headers of a listed proxy only', async () => {
    // app.inject comes from 127.0.0.1 unless told otherwise.
    expect(await auditedIp(t, { headers: { 'x-forwarded-for': '7.7.7.7' } })).toBe('7.7.7.7');
    expect(await auditedIp(t, { headers: { 'x-forwarded-for': '7.7.7.7' }, remoteAddress: '10.1.2.3' })).toBe(
      '7.7.7.7',
    );
    expect(
      await auditedIp(t, { headers: { 'x-forwarded-for': '7.7.7.7' }, remoteAddress: '192.0.2.50' }),
    ).toBe('192.0.2.50');
    // A chain through two listed proxies stops at the first address that is not one of them.
    expect(await auditedIp(t, { headers: { 'x-forwarded-for': '6.6.6.6, 7.7.7.7, 10.9.9.9' } })).toBe(
      '7.7.7.7',
    );
  });

  it('takes https only from a listed proxy', async () => {
    const trusted = await t.app.inject({ method: 'GET', url: '/api/health', headers: forged });
    expect(trusted.headers['strict-transport-security']).toContain('max-age=');
    const stranger = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: forged,
      remoteAddress: '192.0.2.50',
    });
    expect(stranger.headers['strict-transport-security']).toBeUndefined();
  });
});
