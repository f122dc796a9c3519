import { asc, eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { hospitals } from '../../db/schema/hospitals.js';
import { rosterPhysicians } from '../../db/schema/roster.js';

export function listHospitals(db: Queryable) {
  return db.select({ id: hospitals.id, name: hospitals.name }).from(hospitals).orderBy(asc(hospitals.name));
}

export async function findHospitalByName(db: Queryable, name: string) {
  const [row] = await db.select().from(hospitals).where(eq(hospitals.name, name));
  return row;
}

/** Inserts a hospital, or returns the existing one of that name. */
export async function upsertHospital(db: Queryable, name: string) {
  await db.insert(hospitals).values({ name }).onConflictDoNothing({ target: hospitals.name });
  return (await findHospitalByName(db, name))!;
}

export async function insertRosterPhysician(db: Queryable, entry: typeof rosterPhysicians.$inferInsert) {
  const [row] = await db.insert(rosterPhysicians).values(entry).returning();
  return row!;
}
