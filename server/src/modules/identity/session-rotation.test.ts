import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, signIn } from '../../../test/factories.js';
import { findLinkInOutbox } from '../../../test/outbox.js';
import { sessionRetiredSecrets, sessions } from '../../db/schema/identity.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_IDLE_MINUTES: '30' });
});
afterAll(() => t.close());

const EXPIRED = { error: 'Your session has expired. Please login again.' };

function refresh(cookie: string) {
  return t.app.inject({ method: 'POST', url: '/api/auth/refresh', headers: { cookie } });
}

function cookieOf(response: Awaited<ReturnType<typeof refresh>>): string | undefined {
  const cookie = response.cookies.find((c) => c.name === 'ra_session');
  return cookie ? `ra_session=${cookie.value}` : undefined;
}

async function sessionOf(token: string) {
  const me = await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(token) });
  expect(me.statusCode).toBe(200);
  const [row] = await t.database.db
    .select()
    .from(sessions)
    .where(sql`${sessions.revokedAt} is null`)
    .orderBy(sql`${sessions.createdAt} desc`)
    .limit(1);
  return row!;
}

/** Moves a session's last activity into the past, and drops this instance's cached copy. */
async function idleFor(sessionId: string, minutes: number) {
  await t.database.db
    .update(sessions)
    .set({ lastUsedAt: new Date(Date.now() - minutes * 60_000) })
    .where(eq(sessions.id, sessionId));
  t.app.ctx.sessionCache.delete(sessionId);
}

describe('refresh rotates the session secret', () => {
  it('hands out a new cookie on every refresh; the new one works', async () => {
    const user = await createPatient(t.database.db);
    const first = await signIn(t.app, user.email);
    const one = await refresh(first.cookie);
    expect(one.statusCode).toBe(200);
    const second = cookieOf(one);
    expect(second).toBeDefined();
    expect(second).not.toBe(first.cookie);
    const two = await refresh(second!);
    expect(two.statusCode).toBe(200);
    expect(cookieOf(two)).not.toBe(second);
  });

  it('revokes the whole session when an already-rotated secret is presented again', async () => {
    const user = await createPatient(t.database.db);
    const stolen = await signIn(t.app, user.email);
    const rotated = await refresh(stolen.cookie);
    const ownersCookie = cookieOf(rotated)!;
    const ownersToken = rotated.json<{ token: string }>().token;
    // The thief tries the copied cookie after the grace window for concurrent tabs.
    await t.database.db.update(sessionRetiredSecrets).set({ retiredAt: new Date(Date.now() - 60_000) });
    const thief = await refresh(stolen.cookie);
    expect(thief.statusCode).toBe(401);
    expect(thief.json()).toEqual(EXPIRED);
    // Owner and thief are both out: the session itself is revoked.
    expect((await refresh(ownersCookie)).statusCode).toBe(401);
    const me = await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(ownersToken) });
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual(EXPIRED);
  });

  it('lets a second tab that refreshed with the same secret a moment later carry on without a new cookie', async () => {
    const user = await createPatient(t.database.db);
    const signedIn = await signIn(t.app, user.email);
    const [a, b] = await Promise.all([refresh(signedIn.cookie), refresh(signedIn.cookie)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([cookieOf(a), cookieOf(b)].filter(Boolean)).toHaveLength(1);
  });
});

describe('idle timeout', () => {
  it('revokes a session unused for longer than SESSION_IDLE_MINUTES, for API calls and refresh', async () => {
    const user = await createPatient(t.database.db);
    const signedIn = await signIn(t.app, user.email);
    const session = await sessionOf(signedIn.token);
    await idleFor(session.id, 31);
    const me = await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(signedIn.token) });
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual(EXPIRED);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.id, session.id));
    expect(row!.revokedAt).not.toBeNull();
    expect((await refresh(signedIn.cookie)).statusCode).toBe(401);
  });

  it('refuses to refresh an idle session', async () => {
    const user = await createPatient(t.database.db);
    const signedIn = await signIn(t.app, user.email);
    const session = await sessionOf(signedIn.token);
    await idleFor(session.id, 45);
    const response = await refresh(signedIn.cookie);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(EXPIRED);
  });

  it('counts what the user does as activity, but not notification polling', async () => {
    const user = await createPatient(t.database.db);
    const signedIn = await signIn(t.app, user.email);
    const session = await sessionOf(signedIn.token);
    await idleFor(session.id, 20);
    const lastUsed = async () =>
      (
        await t.database.db.select().from(sessions).where(eq(sessions.id, session.id))
      )[0]!.lastUsedAt.getTime();
    const before = await lastUsed();
    for (const url of ['/api/notification/polling', '/api/notification/unread-count']) {
      const response = await t.app.inject({ method: 'GET', url, headers: bearer(signedIn.token) });
      expect(response.statusCode).toBeLessThan(300);
    }
    expect(await lastUsed()).toBe(before);
    await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(signedIn.token) });
    expect(await lastUsed()).toBeGreaterThan(Date.now() - 10_000);
  });
});

describe('password reset', () => {
  it('spends every other outstanding reset link when one is used', async () => {
    const user = await createPatient(t.database.db);
    const links: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { email: user.email } });
      await t.app.ctx.mailer.drain();
      links.push(findLinkInOutbox(t.dataDir, user.email)!);
    }
    expect(links[0]).not.toBe(links[1]);
    const tokens = links.map((link) => new URL(link).searchParams.get('token'));
    const used = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password/confirm',
      payload: { token: tokens[1], password: 'brand new password' },
    });
    expect(used.statusCode).toBe(200);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password/confirm',
      payload: { token: tokens[0], password: 'attacker password' },
    });
    expect(other.statusCode).toBe(400);
  });
});
