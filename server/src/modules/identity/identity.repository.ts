import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import {
  passwordTokens,
  patientPhysicians,
  rosterPhysicians,
  sessions,
  users,
} from '../../db/schema/index.js';

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
    .select({ id: sessions.id, userId: sessions.userId })
    .from(sessions)
    .where(and(eq(sessions.secretHash, secretHash), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  return row;
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

export async function updateEmail(db: Queryable, userId: string, email: string) {
  await db.update(users).set({ email, updatedAt: new Date() }).where(eq(users.id, userId));
}

/** Spends every unused password link of a user, for example after their email address changed. */
export async function expirePasswordTokens(db: Queryable, userId: string, now: Date) {
  await db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));
}

export async function insertPasswordToken(db: Queryable, token: typeof passwordTokens.$inferInsert) {
  await db.insert(passwordTokens).values(token);
}

/** Marks a live token used and returns it; a used, expired or unknown token returns undefined. */
export async function consumePasswordToken(db: Queryable, tokenHash: string, now: Date) {
  const [row] = await db
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordTokens.tokenHash, tokenHash),
        isNull(passwordTokens.usedAt),
        gt(passwordTokens.expiresAt, now),
      ),
    )
    .returning({ userId: passwordTokens.userId, purpose: passwordTokens.purpose });
  return row;
}

export async function linkPatientToPhysician(db: Queryable, patientId: string, physicianId: string) {
  await db.insert(patientPhysicians).values({ patientId, physicianId }).onConflictDoNothing();
}

export interface SessionUser {
  id: string;
  email: string;
  role: 'PATIENT' | 'PHYSICIAN' | 'RADIOLOGIST';
  title: string;
  firstName: string;
  lastName: string;
  /** Whether the owner has proved the address; the access policy shows unverified accounts no patient data. */
  emailVerified: boolean;
}

/** The user behind a live session, in one query: used on every authenticated request. */
export async function findUserOfLiveSession(
  db: Queryable,
  sessionId: string,
  now: Date,
): Promise<SessionUser | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      role: users.role,
      title: users.title,
      firstName: users.firstName,
      lastName: users.lastName,
      emailVerifiedAt: users.emailVerifiedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
  if (!row) {
    return undefined;
  }
  const { emailVerifiedAt, ...user } = row;
  return { ...user, emailVerified: emailVerifiedAt !== null };
}
