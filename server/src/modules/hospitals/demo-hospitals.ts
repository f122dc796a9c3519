import { count } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { hospitals } from '../../db/schema/hospitals.js';
import * as repo from './hospitals.repository.js';

/** A hospital of the demo world and the physicians on its roster. */
export interface DemoHospital {
  name: string;
  roster: { first: string; last: string; dob: string }[];
}

/** Whether no hospital exists yet (with no user either, the database is new: seed-demo.ts). */
export async function hasNoHospital(db: Queryable): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(hospitals);
  return row?.n === 0;
}

/**
 * Creates the hospitals that are missing, each with its roster; an existing hospital is left as it
 * is. Returns every hospital's id by name.
 */
export async function seedDemoHospitals(
  db: Queryable,
  list: readonly DemoHospital[],
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const hospital of list) {
    const existing = await repo.findHospitalByName(db, hospital.name);
    const row = existing ?? (await repo.upsertHospital(db, hospital.name));
    ids.set(hospital.name, row.id);
    if (!existing) {
      for (const person of hospital.roster) {
        await repo.insertRosterPhysician(db, {
          hospitalId: row.id,
          firstName: person.first,
          lastName: person.last,
          dob: person.dob,
        });
      }
    }
  }
  return ids;
}

/** Puts one physician on a hospital's roster; returns the roster entry's id. */
export async function addToRoster(
  db: Queryable,
  entry: { hospitalId: string; firstName: string; lastName: string; dob: string },
): Promise<string> {
  return (await repo.insertRosterPhysician(db, entry)).id;
}
