import { and, asc, eq, gt, or } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { invoices, patientPhysicians, users } from '../../db/schema/index.js';

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

/** A physician's patients by last name, first name, id; `after` is the previous page's last key. */
export function listPatientsOfPhysician(
  db: Queryable,
  physicianId: string,
  page: { limit: number; after?: [string, string, string] },
) {
  return db
    .select(patientColumns)
    .from(patientPhysicians)
    .innerJoin(users, eq(users.id, patientPhysicians.patientId))
    .where(and(eq(patientPhysicians.physicianId, physicianId), afterKey(page)))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(page.limit);
}

/** Patients who have paid this radiologist for at least one image, in the same order. */
export function listPatientsOfRadiologist(
  db: Queryable,
  radiologistId: string,
  page: { limit: number; after?: [string, string, string] },
) {
  const paid = db
    .selectDistinct({ patientId: invoices.patientId })
    .from(invoices)
    .where(and(eq(invoices.radiologistId, radiologistId), eq(invoices.status, 'paid')))
    .as('paid');
  return db
    .select(patientColumns)
    .from(paid)
    .innerJoin(users, eq(users.id, paid.patientId))
    .where(afterKey(page))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(page.limit);
}
