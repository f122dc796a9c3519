import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SignJWT, generateKeyPair } from 'jose';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import {
  bearer,
  createPatient,
  createPhysician,
  createRadiologist,
  signIn,
  TEST_PASSWORD,
} from '../../../test/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const EXPIRED = { error: 'Your session has expired. Please login again.' };

function signin(payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/auth/signin', payload });
}

function me(headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url: '/api/user/me', headers });
}

describe('POST /api/auth/signin', () => {
  it.each([
    [{ password: TEST_PASSWORD }, 'email', 'Email address is required'],
    [{ email: '  ', password: TEST_PASSWORD }, 'email', 'Email address is required'],
    [{ email: 'a@b.co' }, 'password', 'Password is required'],
    [{ email: 'a@b.co', password: '' }, 'password', 'Password is required'],
    [
      { email: 'a@b.co', password: 'x', role: 'Admin' },
      'role',
      'Role must be Patient, Physician or Radiologist',
    ],
  ])('refuses %o with 400', async (body, path, msg) => {
    const response = await signin(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({ msg, path });
  });

  it('answers a wrong password and an unknown email the same way', async () => {
    const user = await createPatient(t.database.db);
    const wrong = await signin({ email: user.email, password: 'wrong password' });
    const unknown = await signin({ email: 'nobody@example.test', password: TEST_PASSWORD });
    for (const response of [wrong, unknown]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'The email or password is incorrect' });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('refuses an account without a password (invited, not yet accepted)', async () => {
    const { insertUser } = await import('./identity.repository.js');
    const user = await insertUser(t.database.db, {
      email: 'invited@example.test',
      role: 'PATIENT',
      firstName: 'In',
      lastName: 'Vited',
      dob: '1990-01-01',
    });
    const response = await signin({ email: user!.email, password: 'anything goes' });
    expect(response.statusCode).toBe(401);
  });

  it('refuses the wrong portal with 403 and creates no session', async () => {
    const user = await createPatient(t.database.db);
    const response = await signin({ email: user.email, password: TEST_PASSWORD, role: 'Radiologist' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'Unable to login through this portal' });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('signs in through the right portal with a trimmed, upper-case email', async () => {
    const user = await createRadiologist(t.database.db, { firstName: 'Rae', lastName: 'Diaz' });
    const response = await signin({
      email: `  ${user.email.toUpperCase()}`,
      password: TEST_PASSWORD,
      role: 'radiologist',
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      token: expect.any(String),
      expiresIn: 3600,
      idleTimeout: 1800,
      user: {
        uid: user.id,
        email: user.email,
        displayName: 'Dr. Rae Diaz',
        role: 'Radiologist',
        email_verified: true,
        mfa_enabled: false,
      },
    });
    const cookie = response.cookies.find((c) => c.name === 'ra_session');
    expect(cookie).toMatchObject({ path: '/api/auth', httpOnly: true, sameSite: 'Strict' });
  });
});

describe('GET /api/user/me', () => {
  it('needs a bearer token', async () => {
    expect((await me()).json()).toEqual({ error: 'There was an error with your request.' });
    expect((await me()).statusCode).toBe(401);
    expect((await me({ authorization: 'Basic abc' })).statusCode).toBe(401);
  });

  it('refuses a tampered token', async () => {
    const user = await createPatient(t.database.db);
    const { token } = await signIn(t.app, user.email);
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...claims, sub: '00000000-0000-4000-8000-000000000000' }),
    ).toString('base64url');
    const response = await me(bearer(`${header}.${forged}.${signature}`));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(EXPIRED);
  });

  it('refuses a token signed by another key with the same key id', async () => {
    const user = await createPatient(t.database.db);
    const { token } = await signIn(t.app, user.email);
    const kid = JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid;
    const { privateKey } = await generateKeyPair('ES256');
    const foreign = await new SignJWT({ sid: 'x' })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject(user.id)
      .setIssuer('radiology-archive')
      .setExpirationTime('1h')
      .sign(privateKey);
    expect((await me(bearer(foreign))).statusCode).toBe(401);
  });

  it('refuses an expired token', async () => {
    const user = await createPatient(t.database.db);
    const { auth } = await signIn(t.app, user.email);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() - 2 * 3600 * 1000);
    const sessionId = JSON.parse(Buffer.from(auth.token.split('.')[1]!, 'base64url').toString())
      .sid as string;
    const old = await t.app.ctx.keys.sign({ userId: user.id, sessionId });
    vi.useRealTimers();
    const response = await me(bearer(old));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(EXPIRED);
    expect((await me(bearer(auth.token))).statusCode).toBe(200);
  });

  it('returns the caller with a capitalised role', async () => {
    const user = await createPhysician(t.database.db, { firstName: 'Ada', lastName: 'Lane' });
    const { token } = await signIn(t.app, user.email);
    const response = await me(bearer(token));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      uid: user.id,
      email: user.email,
      displayName: 'Dr. Ada Lane',
      role: 'Physician',
      email_verified: true,
      mfa_enabled: false,
    });
  });
});

describe('refresh and sign-out', () => {
  const refresh = (cookie?: string) =>
    t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: cookie ? { cookie } : {} });

  it('refuses a refresh without a session cookie or with an unknown one', async () => {
    for (const response of [await refresh(), await refresh('ra_session=made-up')]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(EXPIRED);
    }
  });

  it('gives a new access token for a live session, and none after sign-out', async () => {
    const user = await createPatient(t.database.db);
    const session = await signIn(t.app, user.email);
    const refreshed = await refresh(session.cookie);
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.json().user.uid).toBe(user.id);
    expect((await me(bearer(refreshed.json().token))).statusCode).toBe(200);

    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signout',
      headers: { cookie: session.cookie },
    });
    expect(out.statusCode).toBe(204);
    expect(out.cookies.find((c) => c.name === 'ra_session')?.value).toBe('');

    expect((await refresh(session.cookie)).statusCode).toBe(401);
    // Access tokens of the revoked session stop working at once.
    expect((await me(bearer(session.token))).json()).toEqual(EXPIRED);
    expect((await me(bearer(refreshed.json().token))).statusCode).toBe(401);
  });

  it('signing out one session leaves the user’s other sessions alive', async () => {
    const user = await createPatient(t.database.db);
    const first = await signIn(t.app, user.email);
    const second = await signIn(t.app, user.email);
    await t.app.inject({ method: 'POST', url: '/api/auth/signout', headers: { cookie: first.cookie } });
    expect((await me(bearer(second.token))).statusCode).toBe(200);
    expect((await refresh(second.cookie)).statusCode).toBe(200);
  });

  it('sign-out without a cookie still answers 204', async () => {
    const response = await t.app.inject({ method: 'POST', url: '/api/auth/signout' });
    expect(response.statusCode).toBe(204);
  });
});

describe('signing keys', () => {
  it('rotate without invalidating tokens signed by the previous key', async () => {
    const user = await createPatient(t.database.db);
    const before = await signIn(t.app, user.email);
    // Each instance rotates on its own timer (main.ts); here every one of them is due at once.
    for (const instance of t.instances) {
      await instance.ctx.keys.refresh(new Date(Date.now() + 400 * 24 * 3600 * 1000));
    }
    const after = await signIn(t.app, user.email);
    const kid = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid;
    expect(kid(after.token)).not.toBe(kid(before.token));
    expect((await me(bearer(before.token))).statusCode).toBe(200);
    expect((await me(bearer(after.token))).statusCode).toBe(200);
  });
});
