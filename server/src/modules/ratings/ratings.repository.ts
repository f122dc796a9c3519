import { and, avg, count, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { imageNotes, invoices, ratings } from '../../db/schema/index.js';

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

/** Whether the radiologist wrote a note on an image the patient paid them to review. */
export async function hasReviewedPaidImage(db: Queryable, patientId: string, radiologistId: string) {
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .innerJoin(
      imageNotes,
      and(eq(imageNotes.imageId, invoices.imageId), eq(imageNotes.authorId, invoices.radiologistId)),
    )
    .where(
      and(
        eq(invoices.patientId, patientId),
        eq(invoices.radiologistId, radiologistId),
        eq(invoices.status, 'paid'),
      ),
    )
    .limit(1);
  return row !== undefined;
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
