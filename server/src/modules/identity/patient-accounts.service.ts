import { displayName } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import * as repo from './identity.repository.js';
import { forgetSessions } from './identity.service.js';
import { createLink, INVITE_LINK_DAYS } from './one-time-links.js';

export interface PatientDetails {
  firstName: string;
  lastName: string;
  dob: string;
}

/** Whether a physician's details describe this account (names case-insensitively, docs/api.md §9.1). */
export function detailsMatch(account: PatientDetails, details: PatientDetails): boolean {
  const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
  return (
    same(account.firstName, details.firstName) &&
    same(account.lastName, details.lastName) &&
    account.dob === details.dob
  );
}

/**
 * An unconfirmed patient account whose address a physician gives for their patient: nobody has
 * proved that address yet, so whoever signed up with it loses the account (password, sessions,
 * links) and the invitation's recipient takes it over with the physician's details.
 */
export async function reclaimUnverifiedPatient(
  ctx: AppContext,
  db: Queryable,
  userId: string,
  details: PatientDetails,
) {
  const now = new Date();
  const account = await repo.reclaimUnverifiedPatient(db, userId, details);
  if (!account) {
    return undefined;
  }
  await repo.expirePasswordTokens(db, userId, now);
  await forgetSessions(ctx, await repo.revokeUserSessions(db, userId, now), db);
  return account;
}

/** Emails a patient the link to choose their password. */
export async function sendPatientInvitation(
  ctx: AppContext,
  db: Queryable,
  patient: { id: string; email: string } & PatientDetails,
  physician: { title: string; firstName: string; lastName: string },
): Promise<void> {
  const link = await createLink(ctx, db, patient.id, 'invite');
  const doctor = displayName({
    title: physician.title,
    first_name: physician.firstName,
    last_name: physician.lastName,
  });
  await ctx.mailer.enqueue(
    {
      to: patient.email,
      subject: `${doctor} invited you to Radiology Archive`,
      text: [
        `Hello ${patient.firstName} ${patient.lastName},`,
        '',
        `${doctor} added you as a patient on Radiology Archive, where you can see your medical images and your physician's notes.`,
        `To choose your password, open this link within ${INVITE_LINK_DAYS} days:`,
        '',
        link,
        '',
        'If you did not expect this, you can ignore this email.',
      ].join('\n'),
      link,
    },
    db,
  );
}
