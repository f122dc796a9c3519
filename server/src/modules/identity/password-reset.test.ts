import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, signIn } from '../../../test/factories.js';
import { findLinkInOutbox, readOutbox } from '../../../test/outbox.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: 'https://archive.example.test' });
});
afterAll(() => t.close());

function requestReset(payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload });
}
function confirm(payload: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/auth/reset-password/confirm', payload });
}
async function resetLinkFor(email: string): Promise<string> {
  expect((await requestReset({ email })).statusCode).toBe(200);
  await t.app.ctx.mailer.drain();
  const link = findLinkInOutbox(t.dataDir, email);
  expect(link).toBeDefined();
  return link!;
}

describe('POST /api/auth/reset-password', () => {
  it('refuses an invalid email with 400', async () => {
    const response = await requestReset({ email: 'nope' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ errors: [{ msg: 'Email address must be valid', path: 'email' }] });
  });

  it('answers the same for an unknown email and sends nothing', async () => {
    const before = readOutbox(t.dataDir).length;
    const response = await requestReset({ email: 'ghost@example.test' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
    await t.app.ctx.mailer.drain();
    expect(readOutbox(t.dataDir)).toHaveLength(before);
  });

  it('emails a single-use link under PUBLIC_URL', async () => {
    const user = await createPatient(t.database.db);
    const link = await resetLinkFor(` ${user.email.toUpperCase()} `.trim().toLowerCase());
    expect(link).toMatch(/^https:\/\/archive\.example\.test\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const mail = readOutbox(t.dataDir).at(-1)!;
    expect(mail.to).toContain(user.email);
    expect(mail.subject).toBe('Reset your Radiology Archive password');
  });
});

describe('POST /api/auth/reset-password/confirm', () => {
  it.each([
    [{ password: 'new password 1' }, 'token', 'This reset link is invalid or has expired.'],
    [{ token: 'made-up', password: 'new password 1' }, 'token', 'This reset link is invalid or has expired.'],
    [{ token: 'made-up', password: 'short' }, 'password', 'Password must be at least 8 characters long'],
  ])('refuses %o with 400', async (body, path, msg) => {
    const response = await confirm(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({ msg, path });
  });

  it('sets the new password once, and revokes every session of the user', async () => {
    const user = await createPatient(t.database.db);
    const session = await signIn(t.app, user.email);
    const token = new URL(await resetLinkFor(user.email)).searchParams.get('token')!;

    const response = await confirm({ token, password: 'brand new secret' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });

    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(session.token) })).statusCode,
    ).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh',
      headers: { cookie: session.cookie },
    });
    expect(refreshed.statusCode).toBe(401);
    await expect(signIn(t.app, user.email)).rejects.toThrow(/401/);
    await signIn(t.app, user.email, 'brand new secret');

    const reused = await confirm({ token, password: 'another secret' });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().errors[0].msg).toBe('This reset link is invalid or has expired.');
  });

  it('refuses an expired link', async () => {
    const user = await createPatient(t.database.db);
    const token = new URL(await resetLinkFor(user.email)).searchParams.get('token')!;
    const { passwordTokens } = await import('../../db/schema/index.js');
    const { eq } = await import('drizzle-orm');
    await t.database.db
      .update(passwordTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordTokens.userId, user.id));
    const response = await confirm({ token, password: 'brand new secret' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0]).toEqual({
      msg: 'This reset link is invalid or has expired.',
      path: 'token',
    });
  });
});
