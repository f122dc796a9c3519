import { displayName } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { InvalidInput, RuleViolation } from '../../lib/errors.js';
import type { AuthUser } from '../../plugins/auth.js';
import { auditOwnProfileChange } from '../audit/audit.service.js';
import { EMAIL_TAKEN, forgetSessions } from './identity.service.js';
import { verifyPassword } from './password-hash.js';
import * as repo from './identity.repository.js';

/**
 * Moves an account to a new email address after re-checking its password (api-contract §3).
 * Every other session is revoked and unused password links are spent, so whoever held the old
 * address or another browser loses access; the old address is told of the change.
 */
export async function changeEmail(
  ctx: AppContext,
  user: AuthUser,
  body: { email: string; password: string },
  ip: string,
): Promise<void> {
  const account = await repo.findUserById(ctx.db, user.id);
  // The password comes first, so a stolen access token cannot probe which emails are taken.
  if (!account || !(await verifyPassword(account.passwordHash, body.password))) {
    throw new InvalidInput('password', 'Incorrect password');
  }
  if (body.email === account.email) {
    throw new InvalidInput('email', 'This is already your email address.');
  }
  if (await repo.findUserByEmail(ctx.db, body.email)) {
    throw new RuleViolation(EMAIL_TAKEN);
  }
  const now = new Date();
  let revoked: { id: string }[];
  try {
    revoked = await ctx.db.transaction(async (tx) => {
      await repo.updateEmail(tx, user.id, body.email);
      await repo.expirePasswordTokens(tx, user.id, now);
      await auditOwnProfileChange(tx, user, ip);
      return repo.revokeOtherSessions(tx, user.id, user.sessionId, now);
    });
  } catch (err) {
    // Someone took the address between the check and the update.
    if (uniqueViolationOf(err) !== undefined) {
      throw new RuleViolation(EMAIL_TAKEN);
    }
    throw err;
  }
  // The current session stays, but its cached copy still holds the old address.
  forgetSessions(ctx, [...revoked, { id: user.sessionId }]);
  const name = displayName({
    title: account.title,
    first_name: account.firstName,
    last_name: account.lastName,
  });
  await ctx.mailer.enqueue({
    to: account.email,
    subject: 'Your Radiology Archive email address was changed',
    text: [
      `Hello ${name},`,
      '',
      `The email address of your Radiology Archive account was changed from ${account.email} to ${body.email} on ${now.toUTCString()}.`,
      'From now on, sign in with the new address. This address will receive no more messages from us.',
      '',
      'If you did not make this change, someone else may know your password: contact Radiology Archive support at once so that we can secure your account.',
    ].join('\n'),
  });
}
