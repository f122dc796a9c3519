import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { bearer, createPatient, signIn } from '../../../test/factories.js';
import { findLinkInOutbox } from '../../../test/outbox.js';
import { soon } from '../../../test/soon.js';
import { sessionRetiredSecrets, sessions } from '../../db/schema/identity.js';

/** The session id an access token names (its `sid` claim). */
function sessionIdOf(token: string): string {
  const payload = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as {
    sid: string;
  };
  return payload.sid;
}

function sessionCookieOf(response: { cookies: { name: string; value: string }[] }): string {
  return `ra_session=${response.cookies.find((c) => c.name === 'ra_session')!.value}`;
}

/**
 * One user's consecutive requests on two instances behind a load balancer without sticky
 * sessions: whatever one instance learns of a session, the other must act on.
 */
describe.runIf(process.env.TEST_DATABASE_URL)(
  'sessions across two instances on one PostgreSQL (needs TEST_DATABASE_URL: PGlite is one process)',
  () => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      // A and B are one instance each, reached directly: the test itself is the load balancer.
      a = await createTestApp({ SESSION_IDLE_MINUTES: '2' }, { proxied: false });
      b = await createTestApp({ SESSION_IDLE_MINUTES: '2' }, { besides: a });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('an old refresh cookie presented on B after a refresh on A ends the session on both', async () => {
      const patient = await createPatient(a.database.db);
      const first = await signIn(a.app, patient.email);
      const refreshed = await a.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { cookie: first.cookie },
      });
      expect(refreshed.statusCode).toBe(200);
      const current = {
        cookie: sessionCookieOf(refreshed),
        token: refreshed.json<{ token: string }>().token,
      };
      const sessionId = sessionIdOf(current.token);
      const me = (t: TestApp) =>
        t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(current.token) });
      expect((await me(a)).statusCode).toBe(200);
      // Past the grace for two tabs refreshing at once, the old cookie can only be a copy.
      await a.database.db
        .update(sessionRetiredSecrets)
        .set({ retiredAt: new Date(Date.now() - 60_000) })
        .where(eq(sessionRetiredSecrets.sessionId, sessionId));

      const reused = await b.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { cookie: first.cookie },
      });
      expect(reused.statusCode).toBe(401);

      // The holder of the current cookie is signed out too, on A, where the session was in use.
      const again = await a.app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        headers: { cookie: current.cookie },
      });
      expect(again.statusCode).toBe(401);
      expect(await soon(async () => (await me(a)).statusCode === 401)).toBe(true);
      const [row] = await a.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
      expect(row!.revokedAt).not.toBeNull();
    });

    it('an address confirmed on A reaches the session B has cached, through the change feed', async () => {
      const patient = await createPatient(a.database.db, { emailVerified: false });
      const session = await signIn(a.app, patient.email);
      const me = (t: TestApp) =>
        t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(session.token) });
      expect((await me(b)).json()).toMatchObject({ email_verified: false });

      await a.app.inject({
        method: 'POST',
        url: '/api/auth/verify-email/resend',
        headers: bearer(session.token),
      });
      // The mail goes out through the job queue the two instances share: either may send it, into
      // its own outbox.
      let link: string | undefined;
      const isSent = await soon(async () => {
        await Promise.all([a.app.ctx.mailer.drain(), b.app.ctx.mailer.drain()]);
        link = findLinkInOutbox(a.dataDir, patient.email) ?? findLinkInOutbox(b.dataDir, patient.email);
        return link !== undefined;
      }, 10_000);
      expect(isSent).toBe(true);
      const confirmed = await a.app.inject({
        method: 'POST',
        url: '/api/auth/verify-email',
        payload: { token: new URL(link!).searchParams.get('token') },
      });
      expect(confirmed.statusCode).toBe(200);
      // B still holds the session as it was until A's announcement arrives; then it reloads it.
      expect(await soon(async () => (await me(b)).json().email_verified === true)).toBe(true);
    });

    it('measures the idle timeout from the last use on any instance', async () => {
      const patient = await createPatient(a.database.db);
      const session = await signIn(a.app, patient.email);
      const sessionId = sessionIdOf(session.token);
      const me = (t: TestApp) =>
        t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(session.token) });
      expect((await me(a)).statusCode).toBe(200);
      const lastUsedBy = async (t: TestApp, at: Date) => {
        const cached = await t.app.ctx.sessionCache.getOrLoad(sessionId, () => Promise.resolve(undefined));
        expect(cached).toBeDefined();
        cached!.lastUsedAt = at;
      };
      const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

      // A served the user 3 minutes ago (past the 2-minute timeout) as far as A knows; B served
      // them just now, and wrote it down.
      await a.database.db
        .update(sessions)
        .set({ lastUsedAt: minutesAgo(1.5) })
        .where(eq(sessions.id, sessionId));
      expect((await me(b)).statusCode).toBe(200);
      const [touched] = await a.database.db.select().from(sessions).where(eq(sessions.id, sessionId));
      expect(Date.now() - touched!.lastUsedAt.getTime()).toBeLessThan(10_000);
      await lastUsedBy(a, minutesAgo(3));
      expect((await me(a)).statusCode).toBe(200);

      // Really idle everywhere: A ends the session, and B, which last saw it in use, follows.
      expect((await me(b)).statusCode).toBe(200);
      await a.database.db
        .update(sessions)
        .set({ lastUsedAt: minutesAgo(3) })
        .where(eq(sessions.id, sessionId));
      await lastUsedBy(a, minutesAgo(3));
      expect((await me(a)).statusCode).toBe(401);
      expect(await soon(async () => (await me(b)).statusCode === 401)).toBe(true);
    });
  },
);
