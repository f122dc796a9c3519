import type { AppContext } from '../../context.js';
import { InvalidInput, RuleViolation } from '../../lib/errors.js';
import type { Actor } from '../../lib/actor.js';
import { EMAIL_TAKEN } from './identity.service.js';
import { requestEmailChange } from './email-verification.service.js';
import { verifyPassword } from './password-hash.js';
import * as repo from './identity.repository.js';

/**
 * Asks to move an account to a new email address after re-checking its password
 * (docs/api.md §8.4): the address changes only when the link sent to it is opened, and the old
 * address is told.
 */
export async function changeEmail(
  ctx: AppContext,
  user: Actor,
  body: { email: string; password: string },
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
  await requestEmailChange(ctx, account, body.email);
}
