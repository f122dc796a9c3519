import type { UploadPurpose } from '@ra/shared';
import { and, eq, gt, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { archiveItems } from '../../db/schema/archive-items.js';
import { uploads } from '../../db/schema/uploads.js';

export async function insertUpload(db: Queryable, upload: typeof uploads.$inferInsert) {
  await db.insert(uploads).values(upload);
}

export async function findUpload(db: Queryable, id: string) {
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  return row;
}

export async function markUploadFinished(
  db: Queryable,
  id: string,
  file: { contentType: string | null; width: number | null; height: number | null },
) {
  await db
    .update(uploads)
    .set({ ...file, finishedAt: new Date() })
    .where(eq(uploads.id, id));
}

/** Claims a finished, unclaimed, fresh upload of `userId` for `purpose`; undefined when there is none. */
export async function claimUpload(
  db: Queryable,
  claim: { id: string; userId: string; purpose: 'image' | 'profile'; notBefore: Date },
) {
  const [row] = await db
    .update(uploads)
    .set({ claimedAt: new Date() })
    .where(
      and(
        eq(uploads.id, claim.id),
        eq(uploads.userId, claim.userId),
        eq(uploads.purpose, claim.purpose),
        isNotNull(uploads.finishedAt),
        isNotNull(uploads.contentType),
        isNull(uploads.claimedAt),
        gt(uploads.createdAt, claim.notBefore),
      ),
    )
    .returning();
  return row;
}

export function listUnclaimedBefore(db: Queryable, before: Date) {
  return db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(isNull(uploads.claimedAt), lt(uploads.createdAt, before)));
}

export async function deleteUpload(db: Queryable, id: string) {
  await db.delete(uploads).where(eq(uploads.id, id));
}

/** Undoes a claim whose file could not be stored, so the user can try again. */
export async function releaseUpload(db: Queryable, id: string) {
  await db.update(uploads).set({ claimedAt: null }).where(eq(uploads.id, id));
}

/**
 * One user's recent uploads in figures: unfinished ones (count and declared bytes) and those
 * created since `createdSince`. Only uploads newer than `notBefore` count: older unfinished ones
 * have expired. Planned as a bitmap scan of uploads_user_idx (checked with EXPLAIN); a user with a
 * very long history would make a (user_id, created_at) index worthwhile, a schema change not made here.
 */
export async function uploadFiguresOf(
  db: Queryable,
  userId: string,
  window: { notBefore: Date; createdSince: Date },
) {
  const unfinished = isNull(uploads.finishedAt);
  const [row] = await db
    .select({
      pending: sql<number>`count(*) filter (where ${unfinished})`.mapWith(Number),
      pendingBytes: sql<number>`coalesce(sum(${uploads.size}) filter (where ${unfinished}), 0)`.mapWith(
        Number,
      ),
      createdRecently:
        sql<number>`count(*) filter (where ${gt(uploads.createdAt, window.createdSince)})`.mapWith(Number),
    })
    .from(uploads)
    .where(and(eq(uploads.userId, userId), gt(uploads.createdAt, window.notBefore)));
  return row ?? { pending: 0, pendingBytes: 0, createdRecently: 0 };
}

/** Forgets an upload its owner terminated, unless it was already claimed. */
export async function deleteUnclaimedUpload(db: Queryable, id: string) {
  await db.delete(uploads).where(and(eq(uploads.id, id), isNull(uploads.claimedAt)));
}

/** Finished, unclaimed, fresh uploads of `userId` among `ids` with one of `purposes`. */
export function findClaimableUploads(
  db: Queryable,
  claim: { ids: string[]; userId: string; purposes: UploadPurpose[]; notBefore: Date },
) {
  return db.select().from(uploads).where(claimableWhere(claim));
}

/** Claims those of `ids` still claimable; returns their ids (fewer when another request won one). */
export async function claimUploads(
  db: Queryable,
  claim: { ids: string[]; userId: string; purposes: UploadPurpose[]; notBefore: Date },
): Promise<string[]> {
  const rows = await db
    .update(uploads)
    .set({ claimedAt: new Date() })
    .where(claimableWhere(claim))
    .returning({ id: uploads.id });
  return rows.map((row) => row.id);
}

function claimableWhere(claim: {
  ids: string[];
  userId: string;
  purposes: UploadPurpose[];
  notBefore: Date;
}) {
  return and(
    inArray(uploads.id, claim.ids),
    eq(uploads.userId, claim.userId),
    inArray(uploads.purpose, claim.purposes),
    isNotNull(uploads.finishedAt),
    isNotNull(uploads.contentType),
    isNull(uploads.claimedAt),
    gt(uploads.createdAt, claim.notBefore),
  );
}

/** Undoes a claim of several uploads, so that the user can file them again. */
export async function releaseUploads(db: Queryable, ids: string[]) {
  await db.update(uploads).set({ claimedAt: null }).where(inArray(uploads.id, ids));
}

/** The bytes of the archive items a user uploaded (a study counts every instance filed into it). */
export async function storedBytesOf(db: Queryable, userId: string): Promise<number> {
  const [row] = await db
    .select({ bytes: sql<number>`coalesce(sum(${archiveItems.size}), 0)`.mapWith(Number) })
    .from(archiveItems)
    .where(eq(archiveItems.uploaderId, userId));
  return row?.bytes ?? 0;
}
