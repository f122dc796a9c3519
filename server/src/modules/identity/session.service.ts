import type { AuthResponse } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { Refusal } from '../../lib/errors.js';
import { randomSecret, sha256 } from '../../lib/secrets.js';
import type { SessionActor } from '../../lib/actor.js';
import * as repo from './identity.repository.js';
import type { Queryable } from '../../db/client.js';
import { forgetSessions, issueAccessToken } from './identity.service.js';

/**
 * Two requests of one browser can refresh with the same cookie at once (two tabs); the slower one
 * then presents a secret rotated a moment ago. Within this window that is not treated as theft.
 */
const ROTATION_GRACE_MS = 10_000;
/**
 * Activity is written at most this often per session, so ordinary requests rarely write; and at
 * least four times per idle timeout, so a short timeout (SESSION_IDLE_MINUTES=1) never ends a
 * session that is in use. Every instance reads and writes the same column: the idle time is
 * measured from the last use on any instance, late by this much at most.
 */
const TOUCH_EVERY_MS = 60_000;

function touchEveryMs(ctx: AppContext): number {
  return Math.min(TOUCH_EVERY_MS, idleLimitMs(ctx) / 4);
}

const sessionExpired = () => new Refusal(401, 'Your session has expired. Please login again.');

export function idleLimitMs(ctx: AppContext): number {
  return ctx.config.sessionIdleMinutes * 60_000;
}

export interface RefreshedSession {
  auth: AuthResponse;
  /** The session's new cookie secret; absent when the browser already holds the current one. */
  cookieSecret?: string;
}

type RefreshOutcome =
  | { kind: 'rotated'; userId: string; sessionId: string; cookieSecret: string }
  | { kind: 'grace'; userId: string; sessionId: string }
  | { kind: 'revoke'; sessionId: string }
  | { kind: 'refused' };

async function decideRefresh(ctx: AppContext, secretHash: string, now: Date): Promise<RefreshOutcome> {
  return ctx.db.transaction(async (tx) => {
    const session = await repo.findLiveSessionBySecret(tx, secretHash, now);
    if (session) {
      if (now.getTime() - session.lastUsedAt.getTime() > idleLimitMs(ctx)) {
        return { kind: 'revoke', sessionId: session.id };
      }
      const cookieSecret = randomSecret();
      const isRotated = await repo.rotateSessionSecret(
        tx,
        session.id,
        { from: secretHash, to: sha256(cookieSecret) },
        now,
      );
      // Lost a race with a concurrent refresh of the same secret: that one rotated it.
      return isRotated
        ? { kind: 'rotated', userId: session.userId, sessionId: session.id, cookieSecret }
        : { kind: 'grace', userId: session.userId, sessionId: session.id };
    }
    const retired = await repo.findRetiredSecret(tx, secretHash);
    if (!retired) {
      return { kind: 'refused' };
    }
    const live = await repo.findLiveSession(tx, retired.sessionId, now);
    if (live && now.getTime() - retired.retiredAt.getTime() <= ROTATION_GRACE_MS) {
      return { kind: 'grace', userId: live.userId, sessionId: live.id };
    }
    // An old secret presented again: someone holds a copy of the cookie. End the session for both.
    return { kind: 'revoke', sessionId: retired.sessionId };
  });
}

/** Exchanges the session cookie for a new access token and a new cookie secret (docs/api.md §4.3). */
export async function refreshSession(
  ctx: AppContext,
  cookieSecret: string | undefined,
): Promise<RefreshedSession> {
  if (!cookieSecret) {
    throw sessionExpired();
  }
  const now = new Date();
  const outcome = await decideRefresh(ctx, sha256(cookieSecret), now);
  switch (outcome.kind) {
    case 'refused':
      throw sessionExpired();
    case 'revoke':
      await forgetSessions(ctx, await repo.revokeSession(ctx.db, outcome.sessionId, now));
      throw sessionExpired();
    case 'grace':
    case 'rotated': {
      const user = await repo.findUserById(ctx.db, outcome.userId);
      if (!user) {
        throw sessionExpired();
      }
      const auth = await issueAccessToken(ctx, user, outcome.sessionId);
      return outcome.kind === 'rotated' ? { auth, cookieSecret: outcome.cookieSecret } : { auth };
    }
  }
}

/**
 * Enforces the idle timeout on an authenticated request and records user activity. Background
 * requests (notification polling) keep nothing alive: only what a person does counts.
 */
export async function checkSessionActivity(
  ctx: AppContext,
  sessionId: string,
  user: SessionActor,
  isBackground: boolean,
): Promise<boolean> {
  const now = new Date();
  let lastUsedAt = user.lastUsedAt;
  if (now.getTime() - lastUsedAt.getTime() > idleLimitMs(ctx)) {
    // The cached time may be stale by a few seconds if another instance saw activity: ask the database.
    const fresh = await repo.findLiveSession(ctx.db, sessionId, now);
    lastUsedAt = fresh?.lastUsedAt ?? lastUsedAt;
    if (now.getTime() - lastUsedAt.getTime() > idleLimitMs(ctx)) {
      await forgetSessions(ctx, await repo.revokeSession(ctx.db, sessionId, now));
      return false;
    }
    user.lastUsedAt = lastUsedAt;
  }
  if (!isBackground && now.getTime() - lastUsedAt.getTime() > touchEveryMs(ctx)) {
    await repo.touchSession(ctx.db, sessionId, now);
    // The cached entry is this instance's copy; keeping it current avoids a write per request.
    user.lastUsedAt = now;
  }
  return true;
}

/** The account behind a live session (not ended, not idle past the timeout) at `now`; one query. */
export function findUserOfLiveSession(db: Queryable, sessionId: string, now: Date) {
  return repo.findUserOfLiveSession(db, sessionId, now);
}
