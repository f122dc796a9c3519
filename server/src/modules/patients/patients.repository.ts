import { and, asc, eq, gt, or, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { patientPhysicians } from '../../db/schema/care.js';
import { users } from '../../db/schema/users.js';

export async function findPhysicianOf(db: Queryable, patientId: string) {
  const [row] = await db
    .select({ physicianId: patientPhysicians.physicianId })
    .from(patientPhysicians)
    .where(eq(patientPhysicians.patientId, patientId));
  return row?.physicianId;
}

/** Links a patient to a physician unless the patient already has one; true when linked now. */
export async function linkPatient(db: Queryable, patientId: string, physicianId: string): Promise<boolean> {
  const rows = await db
    .insert(patientPhysicians)
    .values({ patientId, physicianId })
    .onConflictDoNothing()
    .returning({ patientId: patientPhysicians.patientId });
  return rows.length > 0;
}

function afterKey(page: { after?: [string, string, string] }) {
  return page.after
    ? or(
        gt(users.lastName, page.after[0]),
        and(eq(users.lastName, page.after[0]), gt(users.firstName, page.after[1])),
        and(
          eq(users.lastName, page.after[0]),
          eq(users.firstName, page.after[1]),
          gt(users.id, page.after[2]),
        ),
      )
    : undefined;
}

const patientColumns = {
  id: users.id,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  dob: users.dob,
  pictureId: users.pictureId,
  pictureCropKey: users.pictureCropKey,
};

/**
 * Patients by last name, first name, id; `readable` is the access policy's condition on
 * `users.id` (the patients the caller may see); `after` is the previous page's last key.
 */
export function listPatients(
  db: Queryable,
  readable: (patientId: typeof users.id) => SQL,
  page: { limit: number; after?: [string, string, string] },
) {
  return db
    .select(patientColumns)
    .from(users)
    .where(and(eq(users.role, 'PATIENT'), readable(users.id), afterKey(page)))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(page.limit);
}
