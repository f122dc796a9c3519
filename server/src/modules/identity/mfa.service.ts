import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { MFA_CODE_INCORRECT, MFA_RECOVERY_CODE_COUNT, MFA_REQUIRED, type MfaSetup } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { InvalidInput, Refusal, RuleViolation } from '../../lib/errors.js';
import { sha256 } from '../../lib/secrets.js';
import type { Actor } from '../../lib/actor.js';
import * as repo from './identity.repository.js';
import { forgetUserSessions, startSession, type IssuedSession } from './identity.service.js';
import { findMfaChallenge, spendMfaChallenge } from './mfa-challenge.js';
import { verifyPassword } from './password-hash.js';

const ISSUER = 'Radiology Archive';
/** RFC 6238's recommended step and a one-step tolerance either side for clock drift. */
const PERIOD_SECONDS = 30;
const WINDOW_STEPS = 1;

function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/**
 * Checks a code against the user's secret and spends its time step, so a code seen over a
 * shoulder cannot be used again within its window.
 */
async function acceptCode(
  ctx: AppContext,
  user: { id: string; email: string; totpSecret: string | null },
  code: string,
): Promise<boolean> {
  if (!user.totpSecret || !/^\d{6}$/.test(code)) {
    return false;
  }
  const now = Date.now();
  const delta = totpOf(user.totpSecret, user.email).validate({
    token: code,
    timestamp: now,
    window: WINDOW_STEPS,
  });
  if (delta === null) {
    return false;
  }
  const step = Math.floor(now / 1000 / PERIOD_SECONDS) + delta;
  return repo.claimTotpStep(ctx.db, user.id, step);
}

async function accountWithPassword(ctx: AppContext, userId: string, password: string) {
  const account = await repo.findUserById(ctx.db, userId);
  if (!account || !(await verifyPassword(account.passwordHash, password))) {
    throw new InvalidInput('password', 'Incorrect password');
  }
  return account;
}

/** A new secret, kept pending until a first code proves the app has it. */
export async function setUpTotp(ctx: AppContext, user: Actor, password: string): Promise<MfaSetup> {
  const account = await accountWithPassword(ctx, user.id, password);
  if (account.totpEnabledAt !== null) {
    throw new RuleViolation('Two-factor sign-in is already on.');
  }
  const secret = new Secret({ size: 20 }).base32;
  await repo.updateTotp(ctx.db, user.id, { totpSecret: secret, totpEnabledAt: null, totpLastStep: null });
  return { secret, otpauth_url: totpOf(secret, account.email).toString() };
}

/** Ten random codes in groups of five, easy to copy by hand (about 50 bits each). */
function newRecoveryCodes(): string[] {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789';
  return Array.from({ length: MFA_RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from(crypto.randomBytes(10), (byte) => alphabet[byte % alphabet.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

function recoveryHash(code: string): string {
  return sha256(code.trim().toLowerCase());
}

/** Turns two-factor sign-in on once the first code matches; hands out the recovery codes once. */
export async function enableTotp(ctx: AppContext, user: Actor, code: string): Promise<string[]> {
  const account = await repo.findUserById(ctx.db, user.id);
  if (!account?.totpSecret || account.totpEnabledAt !== null) {
    throw new RuleViolation('Start the set-up again: there is no pending two-factor secret.');
  }
  if (!(await acceptCode(ctx, account, code))) {
    throw new InvalidInput('code', MFA_CODE_INCORRECT);
  }
  const codes = newRecoveryCodes();
  await ctx.db.transaction(async (tx) => {
    await repo.updateTotp(tx, user.id, { totpEnabledAt: new Date() });
    await repo.replaceRecoveryCodes(tx, user.id, codes.map(recoveryHash));
  });
  await forgetUserSessions(ctx, user.id);
  return codes;
}

/** Turns it off with the password and a current code (a stolen session alone cannot). */
export async function disableTotp(ctx: AppContext, user: Actor, body: { password: string; code: string }) {
  const account = await accountWithPassword(ctx, user.id, body.password);
  if (account.totpEnabledAt === null) {
    throw new RuleViolation('Two-factor sign-in is not on.');
  }
  if (ctx.config.requireStaffMfa && account.role !== 'PATIENT') {
    throw new RuleViolation(MFA_REQUIRED);
  }
  if (!(await acceptCode(ctx, account, body.code))) {
    throw new InvalidInput('code', MFA_CODE_INCORRECT);
  }
  await ctx.db.transaction(async (tx) => {
    await repo.updateTotp(tx, user.id, { totpSecret: null, totpEnabledAt: null, totpLastStep: null });
    await repo.replaceRecoveryCodes(tx, user.id, []);
  });
  await forgetUserSessions(ctx, user.id);
}

const SIGN_IN_EXPIRED = 'The sign-in has expired. Please sign in again.';

/**
 * Completes a sign-in with a code or a recovery code (docs/api.md §6.4). `onWrongCode` charges
 * the attempt to the account's sign-in limit before the refusal.
 */
export async function verifyMfa(
  ctx: AppContext,
  body: { mfa_token: string; code?: string; recovery_code?: string },
  onWrongCode: (email: string) => Promise<void>,
): Promise<IssuedSession> {
  const challenge = await findMfaChallenge(ctx, body.mfa_token);
  const account = challenge ? await repo.findUserById(ctx.db, challenge.userId) : undefined;
  if (!account || account.totpEnabledAt === null) {
    throw new Refusal(401, SIGN_IN_EXPIRED);
  }
  const isRight = body.recovery_code
    ? await repo.spendRecoveryCode(ctx.db, account.id, recoveryHash(body.recovery_code), new Date())
    : await acceptCode(ctx, account, body.code ?? '');
  if (!isRight) {
    await onWrongCode(account.email);
    throw new Refusal(401, MFA_CODE_INCORRECT);
  }
  if (!(await spendMfaChallenge(ctx, body.mfa_token))) {
    throw new Refusal(401, SIGN_IN_EXPIRED);
  }
  return startSession(ctx, account);
}
