import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import type { SessionActor } from '../../lib/actor.js';
import { patientPhysicians } from '../../db/schema/care.js';
import { rosterPhysicians } from '../../db/schema/roster.js';
import {
  mfaRecoveryCodes,
  passwordTokens,
  sessionRetiredSecrets,
  sessions,
} from '../../db/schema/identity.js';
import { users } from '../../db/schema/users.js';

type NewUser = typeof users.$inferInsert;

export function findUserByEmail(db: Queryable, email: string) {
  return db.query.users.findFirst({ where: eq(users.email, email) });
}

export function findUserById(db: Queryable, id: string) {
  return db.query.users.findFirst({ where: eq(users.id, id) });
}

/** Inserts a user; returns undefined when the email is already taken. */
export async function insertUser(db: Queryable, user: NewUser) {
  const [row] = await db.insert(users).values(user).onConflictDoNothing({ target: users.email }).returning();
  return row;
}

export async function updatePasswordHash(db: Queryable, userId: string, passwordHash: string) {
  await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** Locks and returns an unclaimed roster entry matching the physician (names case-insensitive). */
export async function findUnclaimedRosterEntry(
  db: Queryable,
  entry: { hospitalId: string; firstName: string; lastName: string; dob: string },
) {
  const [row] = await db
    .select({ id: rosterPhysicians.id })
    .from(rosterPhysicians)
    .where(
      and(
        eq(rosterPhysicians.hospitalId, entry.hospitalId),
        sql`lower(${rosterPhysicians.firstName}) = lower(${entry.firstName})`,
        sql`lower(${rosterPhysicians.lastName}) = lower(${entry.lastName})`,
        eq(rosterPhysicians.dob, entry.dob),
        isNull(rosterPhysicians.claimedBy),
      ),
    )
    .limit(1)
    .for('update');
  return row;
}

export async function claimRosterEntry(db: Queryable, rosterId: string, userId: string) {
  await db.update(rosterPhysicians).set({ claimedBy: userId }).where(eq(rosterPhysicians.id, rosterId));
}

export async function insertSession(db: Queryable, session: typeof sessions.$inferInsert) {
  const [row] = await db.insert(sessions).values(session).returning({ id: sessions.id });
  return row!;
}

/** A session that is neither revoked nor expired, found by its cookie secret's hash. */
export async function findLiveSessionBySecret(db: Queryable, secretHash: string, now: Date) {
  const [row] = await db
    .select({ id: sessions.id, userId: sessions.userId, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .where(and(eq(sessions.secretHash, secretHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  return row;
}

/** Replaces a session's cookie secret, remembering the old one so that a copy of it can be recognised. */
export async function rotateSessionSecret(
  db: Queryable,
  sessionId: string,
  change: { from: string; to: string },
  now: Date,
): Promise<boolean> {
  const rotated = await db
    .update(sessions)
    .set({ secretHash: change.to })
    .where(and(eq(sessions.id, sessionId), eq(sessions.secretHash, change.from)))
    .returning({ id: sessions.id });
  if (rotated.length === 0) {
    return false;
  }
  await db.insert(sessionRetiredSecrets).values({ secretHash: change.from, sessionId, retiredAt: now });
  return true;
}

/** The session a cookie secret used to belong to before it was rotated away. */
export async function findRetiredSecret(db: Queryable, secretHash: string) {
  const [row] = await db
    .select({ sessionId: sessionRetiredSecrets.sessionId, retiredAt: sessionRetiredSecrets.retiredAt })
    .from(sessionRetiredSecrets)
    .where(eq(sessionRetiredSecrets.secretHash, secretHash));
  return row;
}

/** A live session by id (neither revoked nor expired). */
export async function findLiveSession(db: Queryable, sessionId: string, now: Date) {
  const [row] = await db
    .select({ id: sessions.id, userId: sessions.userId, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  return row;
}

export async function listLiveSessionIds(db: Queryable, userId: string, now: Date) {
  return db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
}

export async function revokeSession(db: Queryable, sessionId: string, now: Date) {
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
}

export async function touchSession(db: Queryable, sessionId: string, now: Date) {
  await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, sessionId));
}

export async function revokeSessionBySecret(db: Queryable, secretHash: string, now: Date) {
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.secretHash, secretHash), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
}

export async function revokeUserSessions(db: Queryable, userId: string, now: Date) {
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)))
    .returning({ id: sessions.id });
}

/** Revokes every live session of a user except `keepSessionId`. */
export async function revokeOtherSessions(db: Queryable, userId: string, keepSessionId: string, now: Date) {
  return db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ne(sessions.id, keepSessionId)))
    .returning({ id: sessions.id });
}

export async function markEmailVerified(db: Queryable, userId: string, now: Date) {
  await db
    .update(users)
    .set({ emailVerifiedAt: now, updatedAt: now })
    .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
}

/**
 * An unconfirmed patient account that a physician claims for their patient: it takes the
 * physician's details, and its password stops working until the invitation is completed.
 */
export async function reclaimUnverifiedPatient(
  db: Queryable,
  userId: string,
  details: { firstName: string; lastName: string; dob: string },
) {
  const [row] = await db
    .update(users)
    .set({ ...details, passwordHash: null, updatedAt: new Date() })
    .where(and(eq(users.id, userId), eq(users.role, 'PATIENT'), isNull(users.emailVerifiedAt)))
    .returning();
  return row;
}

export async function updateEmail(db: Queryable, userId: string, email: string) {
  await db.update(users).set({ email, updatedAt: new Date() }).where(eq(users.id, userId));
}

type TokenPurpose = (typeof passwordTokens.$inferSelect)['purpose'];

/**
 * Spends every unused one-time link of a user (of the given purposes, or all), for example after
 * their email address changed or their password was reset.
 */
export async function expirePasswordTokens(
  db: Queryable,
  userId: string,
  now: Date,
  purposes?: TokenPurpose[],
) {
  await db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordTokens.userId, userId),
        isNull(passwordTokens.usedAt),
        purposes ? inArray(passwordTokens.purpose, purposes) : undefined,
      ),
    );
}

export async function insertPasswordToken(db: Queryable, token: typeof passwordTokens.$inferInsert) {
  await db.insert(passwordTokens).values(token);
}

/** A live (unused, unexpired) token of this purpose, without spending it. */
export async function findLivePasswordToken(
  db: Queryable,
  tokenHash: string,
  purpose: TokenPurpose,
  now: Date,
) {
  const [row] = await db
    .select({ id: passwordTokens.id, userId: passwordTokens.userId })
    .from(passwordTokens)
    .where(
      and(
        eq(passwordTokens.tokenHash, tokenHash),
        eq(passwordTokens.purpose, purpose),
        isNull(passwordTokens.usedAt),
        gt(passwordTokens.expiresAt, now),
      ),
    );
  return row;
}

/** Sets or clears a user's TOTP secret and enrolment. */
export async function updateTotp(
  db: Queryable,
  userId: string,
  totp: Partial<{ totpSecret: string | null; totpEnabledAt: Date | null; totpLastStep: number | null }>,
) {
  await db
    .update(users)
    .set({ ...totp, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** Records the time step of an accepted code; false when that step (or a later one) was used already. */
export async function claimTotpStep(db: Queryable, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, userId), sql`(${users.totpLastStep} is null or ${users.totpLastStep} < ${step})`))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function replaceRecoveryCodes(db: Queryable, userId: string, codeHashes: string[]) {
  await db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  if (codeHashes.length > 0) {
    await db.insert(mfaRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
  }
}

/** Spends one unused recovery code of the user; false when it is unknown or used. */
export async function spendRecoveryCode(db: Queryable, userId: string, codeHash: string, now: Date) {
  const rows = await db
    .update(mfaRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(mfaRecoveryCodes.userId, userId),
        eq(mfaRecoveryCodes.codeHash, codeHash),
        isNull(mfaRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: mfaRecoveryCodes.id });
  return rows.length > 0;
}

/**
 * Marks a live token of one of `purposes` used and returns it; a used, expired, unknown or
 * other-purpose token returns undefined (a confirmation link must never reset a password).
 */
export async function consumePasswordToken(
  db: Queryable,
  tokenHash: string,
  now: Date,
  purposes: TokenPurpose[],
) {
  const [row] = await db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordTokens.tokenHash, tokenHash),
        isNull(passwordTokens.usedAt),
        gt(passwordTokens.expiresAt, now),
        inArray(passwordTokens.purpose, purposes),
      ),
    )
    .returning({
      userId: passwordTokens.userId,
      purpose: passwordTokens.purpose,
      newEmail: passwordTokens.newEmail,
    });
  return row;
}

export async function linkPatientToPhysician(db: Queryable, patientId: string, physicianId: string) {
  await db.insert(patientPhysicians).values({ patientId, physicianId }).onConflictDoNothing();
}

/** The user behind a live session, in one query: used on every authenticated request. */
export async function findUserOfLiveSession(
  db: Queryable,
  sessionId: string,
  now: Date,
): Promise<SessionActor | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      title: users.title,
      firstName: users.firstName,
      lastName: users.lastName,
      emailVerifiedAt: users.emailVerifiedAt,
      totpEnabledAt: users.totpEnabledAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  if (!row) {
    return undefined;
  }
  return { ...row, emailVerified: row.emailVerifiedAt !== null };
}
