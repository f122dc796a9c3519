import { and, avg, count, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { ratings } from '../../db/schema/payments.js';
import { users } from '../../db/schema/users.js';

/** A radiologist as a rating needs them: whether they accept ratings (users is read, never written, here). */
export async function findRateableRadiologist(db: Queryable, id: string) {
  const [row] = await db
    .select({ id: users.id, allowRatings: users.allowRatings })
    .from(users)
    .where(and(eq(users.id, id), eq(users.role, 'RADIOLOGIST')));
  return row;
}

export async function findRating(db: Queryable, patientId: string, radiologistId: string) {
  const [row] = await db
    .select()
    .from(ratings)
    .where(and(eq(ratings.patientId, patientId), eq(ratings.radiologistId, radiologistId)));
  return row;
}

export async function upsertRating(db: Queryable, patientId: string, radiologistId: string, rating: number) {
  await db
    .insert(ratings)
    .values({ patientId, radiologistId, rating })
    .onConflictDoUpdate({
      target: [ratings.patientId, ratings.radiologistId],
      set: { rating, updatedAt: new Date() },
    });
}

/** Average (rounded to 2 decimals) and count of ratings per radiologist. */
export async function ratingSummaries(db: Queryable, radiologistIds: string[]) {
  if (radiologistIds.length === 0) {
    return new Map<string, { average: number; count: number }>();
  }
  const rows = await db
    .select({
      radiologistId: ratings.radiologistId,
      average: sql<string>`round(${avg(ratings.rating)}, 2)`,
      total: count(),
    })
    .from(ratings)
    .where(inArray(ratings.radiologistId, radiologistIds))
    .groupBy(ratings.radiologistId);
  return new Map(rows.map((row) => [row.radiologistId, { average: Number(row.average), count: row.total }]));
}
