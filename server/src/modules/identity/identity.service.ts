import { z } from 'zod';
import {
  ACCESS_TOKEN_SECONDS,
  displayName,
  RESET_LINK_INVALID,
  toRole,
  toRoleName,
  type AuthResponse,
  type Me,
  type RoleName,
  type signinBodySchema,
  type signupBodySchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { InvalidInput, Refusal, RuleViolation } from '../../lib/errors.js';
import { randomSecret, sha256 } from '../../lib/secrets.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import * as repo from './identity.repository.js';
import { isDemoSignInRefused } from '../../seed/demo-exposure.js';

export const SESSION_DAYS = 30;
const RESET_LINK_MINUTES = 60;
export const INVITE_LINK_DAYS = 7;

export const EMAIL_TAKEN = 'This email is already in use.';
const NOT_ON_ROSTER = 'Physician does not exist in hospital';

interface UserLike {
  id: string;
  email: string;
  role: 'PATIENT' | 'PHYSICIAN' | 'RADIOLOGIST';
  title: string;
  firstName: string;
  lastName: string;
}

export function toMe(user: UserLike): Me {
  return {
    uid: user.id,
    email: user.email,
    displayName: displayName({ title: user.title, first_name: user.firstName, last_name: user.lastName }),
    role: toRoleName(user.role),
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
    const user = await repo.insertUser(ctx.db, { ...common, role: 'PATIENT', title: body.title });
    if (!user) {
      throw new RuleViolation(EMAIL_TAKEN);
    }
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
  });
  return 'Successfully created physician account';
}

export interface IssuedSession {
  auth: AuthResponse;
  /** The session cookie's value, when a new session was created. */
  cookieSecret?: string;
}

async function issueAccessToken(ctx: AppContext, user: UserLike, sessionId: string): Promise<AuthResponse> {
  const token = await ctx.keys.sign({ userId: user.id, sessionId });
  return { token, expiresIn: ACCESS_TOKEN_SECONDS, user: toMe(user) };
}

export async function signIn(
  ctx: AppContext,
  body: z.output<typeof signinBodySchema>,
): Promise<IssuedSession> {
  const user = await repo.findUserByEmail(ctx.db, body.email);
  const isValid = await verifyPassword(user?.passwordHash ?? null, body.password);
  if (!user || !isValid || isDemoSignInRefused(ctx.refusedDemoSignIns, user)) {
    throw new Refusal(401, 'The email or password is incorrect');
  }
  // The portal is checked only after the password, so it reveals nothing to a stranger.
  if (body.role && toRole(body.role) !== user.role) {
    throw new Refusal(403, 'Unable to login through this portal');
  }
  const cookieSecret = randomSecret();
  const now = new Date();
  const session = await repo.insertSession(ctx.db, {
    userId: user.id,
    secretHash: sha256(cookieSecret),
    expiresAt: new Date(now.getTime() + SESSION_DAYS * 24 * 3600 * 1000),
  });
  return { auth: await issueAccessToken(ctx, user, session.id), cookieSecret };
}

export async function refresh(ctx: AppContext, cookieSecret: string | undefined): Promise<AuthResponse> {
  const now = new Date();
  const session = cookieSecret
    ? await repo.findLiveSessionBySecret(ctx.db, sha256(cookieSecret), now)
    : undefined;
  const user = session ? await repo.findUserById(ctx.db, session.userId) : undefined;
  if (!session || !user) {
    throw new Refusal(401, 'Your session has expired. Please login again.');
  }
  await repo.touchSession(ctx.db, session.id, now);
  return issueAccessToken(ctx, user, session.id);
}

/** Drops sessions from this instance's cache at once (others drop them when their entry expires). */
export function forgetSessions(ctx: AppContext, revoked: { id: string }[]): void {
  for (const session of revoked) {
    ctx.sessionCache.delete(session.id);
  }
}

export async function signOut(ctx: AppContext, cookieSecret: string | undefined): Promise<void> {
  if (cookieSecret) {
    const revoked = await repo.revokeSessionBySecret(ctx.db, sha256(cookieSecret), new Date());
    forgetSessions(ctx, revoked);
  }
}

export async function checkPortal(ctx: AppContext, role: RoleName | undefined, email: string): Promise<void> {
  const user = role ? await repo.findUserByEmail(ctx.db, email) : undefined;
  if (!role || !user || user.role !== toRole(role)) {
    throw new RuleViolation('Unable to access portal');
  }
}

/** Creates a single-use password link for a user and returns its URL. */
export async function createPasswordLink(
  ctx: AppContext,
  userId: string,
  purpose: 'reset' | 'invite',
): Promise<string> {
  const token = randomSecret();
  const lifetimeMs = purpose === 'reset' ? RESET_LINK_MINUTES * 60_000 : INVITE_LINK_DAYS * 24 * 3600_000;
  await repo.insertPasswordToken(ctx.db, {
    userId,
    tokenHash: sha256(token),
    purpose,
    expiresAt: new Date(Date.now() + lifetimeMs),
  });
  const suffix = purpose === 'invite' ? '&invite=1' : '';
  return `${ctx.config.publicUrl}/reset-password?token=${token}${suffix}`;
}

export async function requestPasswordReset(ctx: AppContext, email: string): Promise<void> {
  const user = await repo.findUserByEmail(ctx.db, email);
  if (!user) {
    return;
  }
  const link = await createPasswordLink(ctx, user.id, 'reset');
  await ctx.mailer.enqueue({
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
  });
}

export async function confirmPasswordReset(ctx: AppContext, token: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const used = await repo.consumePasswordToken(tx, sha256(token), now);
    if (!used) {
      throw new InvalidInput('token', RESET_LINK_INVALID);
    }
    await repo.updatePasswordHash(tx, used.userId, passwordHash);
    forgetSessions(ctx, await repo.revokeUserSessions(tx, used.userId, now));
  });
}
