import { displayName, EMAIL_LINK_INVALID } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { uniqueViolationOf } from '../../lib/db-errors.js';
import { InvalidInput, RuleViolation } from '../../lib/errors.js';
import { sha256 } from '../../lib/secrets.js';
import { auditOwnProfileChange } from '../audit/index.js';
import * as repo from './identity.repository.js';
import { createLink, EMAIL_LINK_HOURS } from './one-time-links.js';

const EMAIL_TAKEN = 'This email is already in use.';

interface Addressee {
  id: string;
  email: string;
  title: string;
  firstName: string;
  lastName: string;
}

function greeting(user: Addressee): string {
  return `Hello ${displayName({ title: user.title, first_name: user.firstName, last_name: user.lastName })},`;
}

/** Sends a new account's owner the link that proves the address is theirs (docs/api.md §5.1). */
export async function sendEmailConfirmation(
  ctx: AppContext,
  user: Addressee,
  db: Queryable = ctx.db,
): Promise<void> {
  const link = await createLink(ctx, db, user.id, 'verify_email');
  await ctx.mailer.enqueue(
    {
      to: user.email,
      subject: 'Confirm your email address',
      text: [
        greeting(user),
        '',
        'Please confirm that this is your email address for Radiology Archive.',
        `Open this link within ${EMAIL_LINK_HOURS} hours:`,
        '',
        link,
        '',
        'Until you do, your account shows no medical records. If you did not create this account, ignore this email.',
      ].join('\n'),
      link,
    },
    db,
  );
}

/** A new confirmation link for a signed-in user whose address is not confirmed yet; earlier links stop working. */
export async function resendEmailConfirmation(ctx: AppContext, userId: string): Promise<void> {
  const user = await repo.findUserById(ctx.db, userId);
  if (!user || user.emailVerifiedAt !== null) {
    return;
  }
  await ctx.db.transaction(async (tx) => {
    await repo.expirePasswordTokens(tx, user.id, new Date(), ['verify_email']);
    await sendEmailConfirmation(ctx, user, tx);
  });
}

/**
 * Starts an email change: nothing changes until the new address confirms. The old address is
 * told at once, with a link that cancels the change.
 */
export async function requestEmailChange(ctx: AppContext, user: Addressee, newEmail: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    // One pending change at a time: an earlier request's links stop working.
    await repo.expirePasswordTokens(tx, user.id, now, ['email_change', 'email_change_cancel']);
    const confirm = await createLink(ctx, tx, user.id, 'email_change', newEmail);
    const cancel = await createLink(ctx, tx, user.id, 'email_change_cancel');
    await ctx.mailer.enqueue(
      {
        to: newEmail,
        subject: 'Confirm your new email address',
        text: [
          greeting(user),
          '',
          `You asked to use this address for your Radiology Archive account instead of ${user.email}.`,
          `To confirm the change, open this link within ${EMAIL_LINK_HOURS} hours:`,
          '',
          confirm,
          '',
          'If you did not ask for this, ignore this email; nothing changes.',
        ].join('\n'),
        link: confirm,
      },
      tx,
    );
    await ctx.mailer.enqueue(
      {
        to: user.email,
        subject: 'A change of your Radiology Archive email address was requested',
        text: [
          greeting(user),
          '',
          `Someone signed in to your account asked to change its email address to ${newEmail}.`,
          'The change happens only if that address confirms it. If this was not you, cancel it with this link and change your password:',
          '',
          cancel,
        ].join('\n'),
        link: cancel,
      },
      tx,
    );
  });
}

export interface LinkOutcome {
  userId: string;
  /** Sessions ended by the change, to drop from this instance's cache. */
  revoked: { id: string }[];
}

/**
 * Carries out what an emailed link stands for: confirming an address, completing an email change
 * (every session but `keepSessionId` ends), or cancelling a pending change.
 */
export async function useEmailLink(
  ctx: AppContext,
  token: string,
  context: { keepSessionId?: string; ip: string },
): Promise<LinkOutcome> {
  const now = new Date();
  try {
    return await ctx.db.transaction(async (tx) => {
      const used = await repo.consumePasswordToken(tx, sha256(token), now, [
        'verify_email',
        'email_change',
        'email_change_cancel',
      ]);
      if (!used) {
        throw new InvalidInput('token', EMAIL_LINK_INVALID);
      }
      switch (used.purpose) {
        case 'email_change': {
          if (!used.newEmail || (await repo.findUserByEmail(tx, used.newEmail))) {
            throw new RuleViolation(EMAIL_TAKEN);
          }
          await repo.updateEmail(tx, used.userId, used.newEmail);
          await repo.markEmailVerified(tx, used.userId, now);
          // Links sent to the old address (resets, the cancel link) must not outlive it.
          await repo.expirePasswordTokens(tx, used.userId, now);
          const account = await repo.findUserById(tx, used.userId);
          if (account) {
            await auditOwnProfileChange(tx, account, context.ip);
          }
          const revoked = context.keepSessionId
            ? await repo.revokeOtherSessions(tx, used.userId, context.keepSessionId, now)
            : await repo.revokeUserSessions(tx, used.userId, now);
          // The kept session's cached copy still holds the old address.
          return {
            userId: used.userId,
            revoked: [...revoked, ...(context.keepSessionId ? [{ id: context.keepSessionId }] : [])],
          };
        }
        case 'email_change_cancel':
          await repo.expirePasswordTokens(tx, used.userId, now, ['email_change']);
          return { userId: used.userId, revoked: [] };
        default:
          await repo.markEmailVerified(tx, used.userId, now);
          return { userId: used.userId, revoked: [] };
      }
    });
  } catch (err) {
    // Someone took the address between the check and the update.
    if (uniqueViolationOf(err) !== undefined) {
      throw new RuleViolation(EMAIL_TAKEN);
    }
    throw err;
  }
}
