import { z } from 'zod';
import type { Actor } from '../../lib/actor.js';
import {
  ACCESS_TOKEN_SECONDS,
  displayName,
  RESET_LINK_INVALID,
  toRole,
  toRoleName,
  type AuthResponse,
  type Me,
  type MfaChallenge,
  type RoleName,
  type signinBodySchema,
  type signupBodySchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { announceChange } from '../../db/change-feed.js';
import type { Queryable } from '../../db/client.js';
import { InvalidInput, Refusal, RuleViolation } from '../../lib/errors.js';
import { randomSecret, sha256 } from '../../lib/secrets.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import * as repo from './identity.repository.js';
import { createLink, RESET_LINK_MINUTES } from './one-time-links.js';
import { sendEmailConfirmation } from './email-verification.service.js';
import { isDemoSignInRefused } from './demo-exposure.js';
import { createMfaChallenge } from './mfa-challenge.js';

export const SESSION_DAYS = 30;

export const EMAIL_TAKEN = 'This email is already in use.';
const NOT_ON_ROSTER = 'Physician does not exist in hospital';

/** The account fields of an actor: what a sign-in reads of the user before any session exists. */
type Account = Omit<Actor, 'sessionId' | 'emailVerified'>;

export function toMe(user: Account): Me {
  return {
    uid: user.id,
    email: user.email,
    displayName: displayName({ title: user.title, first_name: user.firstName, last_name: user.lastName }),
    role: toRoleName(user.role),
    email_verified: user.emailVerifiedAt !== null,
    mfa_enabled: user.totpEnabledAt !== null,
  };
}

export async function signUp(ctx: AppContext, body: z.output<typeof signupBodySchema>): Promise<string> {
  const passwordHash = await hashPassword(body.password);
  const common = {
    email: body.email,
    passwordHash,
    firstName: body.first_name,
    lastName: body.last_name,
    dob: body.dob,
  };
  if (body.role === 'PATIENT') {
    await ctx.db.transaction(async (tx) => {
      const user = await repo.insertUser(tx, { ...common, role: 'PATIENT', title: body.title });
      if (!user) {
        throw new RuleViolation(EMAIL_TAKEN);
      }
      await sendEmailConfirmation(ctx, user, tx);
    });
    return 'Successfully created new user';
  }
  const hospitalId = z.uuid().safeParse(body.hospital);
  if (!hospitalId.success) {
    throw new RuleViolation(NOT_ON_ROSTER);
  }
  await ctx.db.transaction(async (tx) => {
    if (await repo.findUserByEmail(tx, body.email)) {
      throw new RuleViolation(EMAIL_TAKEN);
    }
    const entry = await repo.findUnclaimedRosterEntry(tx, {
      hospitalId: hospitalId.data,
      firstName: body.first_name,
      lastName: body.last_name,
      dob: body.dob,
    });
    if (!entry) {
      throw new RuleViolation(NOT_ON_ROSTER);
    }
    const user = await repo.insertUser(tx, {
      ...common,
      role: 'PHYSICIAN',
      title: 'Dr.',
      hospitalId: hospitalId.data,
    });
    if (!user) {
      throw new RuleViolation(EMAIL_TAKEN);
    }
    await repo.claimRosterEntry(tx, entry.id, user.id);
    await sendEmailConfirmation(ctx, user, tx);
  });
  return 'Successfully created physician account';
}

export interface IssuedSession {
  auth: AuthResponse;
  /** The session cookie's value, when a new session was created. */
  cookieSecret?: string;
}

/** What sign-in answers: a session, or a challenge for the second factor. */
export type SignInOutcome = IssuedSession | { challenge: MfaChallenge };

export async function issueAccessToken(
  ctx: AppContext,
  user: Account,
  sessionId: string,
): Promise<AuthResponse> {
  const token = await ctx.keys.sign({ userId: user.id, sessionId });
  return {
    token,
    expiresIn: ACCESS_TOKEN_SECONDS,
    idleTimeout: ctx.config.sessionIdleMinutes * 60,
    user: toMe(user),
  };
}

export async function signIn(
  ctx: AppContext,
  body: z.output<typeof signinBodySchema>,
): Promise<SignInOutcome> {
  const user = await repo.findUserByEmail(ctx.db, body.email);
  const isValid = await verifyPassword(user?.passwordHash ?? null, body.password);
  if (!user || !isValid || isDemoSignInRefused(ctx.refusedDemoSignIns, user)) {
    throw new Refusal(401, 'The email or password is incorrect');
  }
  // The portal is checked only after the password, so it reveals nothing to a stranger.
  if (body.role && toRole(body.role) !== user.role) {
    throw new Refusal(403, 'Unable to login through this portal');
  }
  if (user.totpEnabledAt !== null) {
    // The password was right; the session waits for the second factor.
    return { challenge: await createMfaChallenge(ctx, user.id) };
  }
  return startSession(ctx, user);
}

/** Opens a session for a user who has proved who they are, with its cookie and first access token. */
export async function startSession(ctx: AppContext, user: Account): Promise<IssuedSession> {
  const cookieSecret = randomSecret();
  const now = new Date();
  const session = await repo.insertSession(ctx.db, {
    userId: user.id,
    secretHash: sha256(cookieSecret),
    expiresAt: new Date(now.getTime() + SESSION_DAYS * 24 * 3600 * 1000),
  });
  return { auth: await issueAccessToken(ctx, user, session.id), cookieSecret };
}

/**
 * Drops sessions from this instance's cache at once and tells every other instance to (when `db`
 * is a transaction, once it commits).
 */
export async function forgetSessions(
  ctx: AppContext,
  revoked: { id: string }[],
  db: Queryable = ctx.db,
): Promise<void> {
  if (revoked.length === 0) {
    return;
  }
  for (const session of revoked) {
    ctx.sessionCache.delete(session.id);
  }
  await announceChange(
    db,
    'sessions',
    revoked.map((session) => session.id),
  );
}

/** After a change to what sessions carry (a confirmed address, two-factor sign-in), reload them. */
export async function forgetUserSessions(ctx: AppContext, userId: string): Promise<void> {
  await forgetSessions(ctx, await repo.listLiveSessionIds(ctx.db, userId, new Date()));
}

export async function signOut(ctx: AppContext, cookieSecret: string | undefined): Promise<void> {
  if (cookieSecret) {
    const now = new Date();
    const secretHash = sha256(cookieSecret);
    let revoked = await repo.revokeSessionBySecret(ctx.db, secretHash, now);
    if (revoked.length === 0) {
      // A secret rotated away still names its session (a tab that missed the new cookie): end it.
      const retired = await repo.findRetiredSecret(ctx.db, secretHash);
      revoked = retired ? await repo.revokeSession(ctx.db, retired.sessionId, now) : [];
    }
    await forgetSessions(ctx, revoked);
  }
}

export async function checkPortal(ctx: AppContext, role: RoleName | undefined, email: string): Promise<void> {
  const user = role ? await repo.findUserByEmail(ctx.db, email) : undefined;
  if (!role || !user || user.role !== toRole(role)) {
    throw new RuleViolation('Unable to access portal');
  }
}

export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user) {
    return;
  }
  await ctx.db.transaction(async (tx) => {
    const link = await createLink(ctx, tx, user.id, 'reset');
    await ctx.mailer.enqueue(
      {
        to: user.email,
        subject: 'Reset your Radiology Archive password',
        text: [
          `Hello ${displayName({ title: user.title, first_name: user.firstName, last_name: user.lastName })},`,
          '',
          'Someone asked to reset the password of your Radiology Archive account.',
          `To choose a new password, open this link within ${RESET_LINK_MINUTES} minutes:`,
          '',
          link,
          '',
          'If you did not ask for this, you can ignore this email; your password stays the same.',
        ].join('\n'),
        link,
      },
      tx,
    );
  });
}

export async function confirmPasswordReset(ctx: AppContext, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const used = await repo.consumePasswordToken(tx, sha256(token), now, ['reset', 'invite']);
    if (!used) {
      throw new InvalidInput('token', RESET_LINK_INVALID);
    }
    await repo.updatePasswordHash(tx, used.userId, passwordHash);
    // The link arrived at the account's address, so whoever opened it owns that address.
    await repo.markEmailVerified(tx, used.userId, now);
    // Whoever chose this password is the owner now: no other reset or invitation link stays usable.
    await repo.expirePasswordTokens(tx, used.userId, now, ['reset', 'invite']);
    await forgetSessions(ctx, await repo.revokeUserSessions(tx, used.userId, now), tx);
  });
}
