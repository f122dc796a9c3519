import type { MfaChallenge } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { randomSecret, sha256 } from '../../lib/secrets.js';
import * as repo from './identity.repository.js';

/** Between a right password and a right code: long enough to open an app, too short to be useful if stolen. */
const CHALLENGE_MINUTES = 5;

/** A single-use token that stands for "this password was right" until a code completes the sign-in. */
export async function createMfaChallenge(ctx: AppContext, userId: string): Promise<MfaChallenge> {
  const token = randomSecret();
  await repo.insertPasswordToken(ctx.db, {
    userId,
    tokenHash: sha256(token),
    purpose: 'mfa_challenge',
    expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
  });
  return { mfa_required: true, mfa_token: token };
}

/** The user a live challenge belongs to; the challenge stays usable until spent. */
export function findMfaChallenge(ctx: AppContext, token: string) {
  return repo.findLivePasswordToken(ctx.db, sha256(token), 'mfa_challenge', new Date());
}

/** Spends a challenge; false when another request spent it first. */
export async function spendMfaChallenge(ctx: AppContext, token: string): Promise<boolean> {
  return (
    (await repo.consumePasswordToken(ctx.db, sha256(token), new Date(), ['mfa_challenge'])) !== undefined
  );
}
