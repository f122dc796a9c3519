import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { shareLinks } from '../../db/schema/shares.js';
import { users } from '../../db/schema/users.js';

export type ShareRow = typeof shareLinks.$inferSelect;

export async function insertShare(db: Queryable, values: typeof shareLinks.$inferInsert): Promise<ShareRow> {
  const [row] = await db.insert(shareLinks).values(values).returning();
  return row!;
}

/** The one lookup a token gets, whatever becomes of it. */
export async function findShareByTokenHash(db: Queryable, tokenHash: string): Promise<ShareRow | undefined> {
  const [row] = await db.select().from(shareLinks).where(eq(shareLinks.tokenHash, tokenHash));
  return row;
}

/** The creator's links, newest first, keyset-paged on (created_at, id). */
export function sharesOfCreator(
  db: Queryable,
  creatorId: string,
  page: { limit: number; after?: [string, string] },
): Promise<ShareRow[]> {
  const after = page.after
    ? sql`(${shareLinks.createdAt}, ${shareLinks.id}) < (${page.after[0]}::timestamptz, ${page.after[1]}::uuid)`
    : undefined;
  return db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.creatorId, creatorId), after))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id))
    .limit(page.limit);
}

/** Revokes the creator's link now; undefined when they have no such link. A second revoke keeps the first time. */
export async function revokeShare(db: Queryable, shareId: string, creatorId: string) {
  const [row] = await db
    .update(shareLinks)
    .set({ revokedAt: sql`coalesce(${shareLinks.revokedAt}, now())` })
    .where(and(eq(shareLinks.id, shareId), eq(shareLinks.creatorId, creatorId)))
    .returning({ id: shareLinks.id, patientId: shareLinks.patientId });
  return row;
}

/** Counts one wrong access code; the count is what locks the link, so it lives in the database. */
export async function countWrongCode(db: Queryable, shareId: string): Promise<number> {
  const [row] = await db
    .update(shareLinks)
    .set({ failedAttempts: sql`${shareLinks.failedAttempts} + 1` })
    .where(eq(shareLinks.id, shareId))
    .returning({ failedAttempts: shareLinks.failedAttempts });
  return row?.failedAttempts ?? 0;
}

/** Counts an opening. */
export async function recordOpening(db: Queryable, shareId: string): Promise<void> {
  await db
    .update(shareLinks)
    .set({ openCount: sql`${shareLinks.openCount} + 1`, lastOpenedAt: sql`now()` })
    .where(eq(shareLinks.id, shareId));
}

/**
 * Marks the patient as told of an opening on `day` (YYYY-MM-DD); true when they had not been told
 * that day yet. One statement, so two openings at once tell the patient once.
 */
export async function markNotifiedOn(db: Queryable, shareId: string, day: string): Promise<boolean> {
  const rows = await db
    .update(shareLinks)
    .set({ notifiedOn: day })
    .where(
      and(
        eq(shareLinks.id, shareId),
        sql`${shareLinks.notifiedOn} is distinct from ${day}`,
        isNull(shareLinks.revokedAt),
      ),
    )
    .returning({ id: shareLinks.id });
  return rows.length > 0;
}

/** The patient a link shows: the name and birth date in its banner. */
export async function patientOfShare(db: Queryable, patientId: string) {
  const [row] = await db
    .select({ title: users.title, firstName: users.firstName, lastName: users.lastName, dob: users.dob })
    .from(users)
    .where(eq(users.id, patientId));
  return row;
}

/** Moves a link's expiry (tests move it into the past). */
export async function setShareExpiry(db: Queryable, shareId: string, expiresAt: Date): Promise<void> {
  await db.update(shareLinks).set({ expiresAt }).where(eq(shareLinks.id, shareId));
}
