import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { randomSecret, sha256 } from '../../lib/secrets.js';
import * as repo from './identity.repository.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const RESET_LINK_MINUTES = 60;
export const INVITE_LINK_DAYS = 7;
export const EMAIL_LINK_HOURS = 24;

/** Where each kind of emailed link leads, and how long it lives. */
const LINKS = {
  reset: { page: 'reset-password', lifetimeMs: RESET_LINK_MINUTES * MINUTE, flag: '' },
  invite: { page: 'reset-password', lifetimeMs: INVITE_LINK_DAYS * DAY, flag: '&invite=1' },
  verify_email: { page: 'verify-email', lifetimeMs: EMAIL_LINK_HOURS * HOUR, flag: '' },
  email_change: { page: 'verify-email', lifetimeMs: EMAIL_LINK_HOURS * HOUR, flag: '&change=1' },
  // The old address may read its notice late; it can cancel for as long as the change could happen.
  email_change_cancel: { page: 'verify-email', lifetimeMs: EMAIL_LINK_HOURS * HOUR, flag: '&cancel=1' },
} as const;

export type LinkPurpose = keyof typeof LINKS;

/** Stores a single-use token (its hash only) and returns the link that carries it. */
export async function createLink(
  ctx: AppContext,
  db: Queryable,
  userId: string,
  purpose: LinkPurpose,
  newEmail?: string,
): Promise<string> {
  const token = randomSecret();
  const link = LINKS[purpose];
  await repo.insertPasswordToken(db, {
    userId,
    tokenHash: sha256(token),
    purpose,
    newEmail,
    expiresAt: new Date(Date.now() + link.lifetimeMs),
  });
  return `${ctx.config.publicUrl}/${link.page}?token=${token}${link.flag}`;
}
