import { count } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { users } from '../../db/schema/users.js';
import * as repo from './identity.repository.js';

/** Whether no account exists yet. */
export async function hasNoAccount(db: Queryable): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(users);
  return row?.n === 0;
}

/** Whether an account holds this address. */
export async function accountExists(db: Queryable, email: string): Promise<boolean> {
  return (await repo.findUserByEmail(db, email)) !== undefined;
}

interface DemoPerson {
  email: string;
  title: string;
  first: string;
  last: string;
  dob: string;
}

/**
 * The demo physician and patient, each made only when missing, with the address confirmed and the
 * given password hash; the physician claims `rosterEntry()`'s entry of their hospital, and the
 * patient is linked to the physician. An existing account is left as it is.
 */
export async function seedDemoPhysicianAndPatient(
  db: Queryable,
  demo: {
    passwordHash: string;
    physician: DemoPerson & { hospitalId: string };
    patient: DemoPerson;
    /** Puts the new physician on their hospital's roster (hospitals module); the entry's id. */
    rosterEntry: () => Promise<string>;
  },
): Promise<void> {
  let physician = await repo.findUserByEmail(db, demo.physician.email);
  if (!physician) {
    physician = await repo.insertUser(db, {
      email: demo.physician.email,
      passwordHash: demo.passwordHash,
      role: 'PHYSICIAN',
      title: demo.physician.title,
      firstName: demo.physician.first,
      lastName: demo.physician.last,
      dob: demo.physician.dob,
      hospitalId: demo.physician.hospitalId,
      emailVerifiedAt: new Date(),
    });
    await repo.claimRosterEntry(db, await demo.rosterEntry(), physician!.id);
  }
  if (!(await repo.findUserByEmail(db, demo.patient.email))) {
    const patient = await repo.insertUser(db, {
      email: demo.patient.email,
      passwordHash: demo.passwordHash,
      role: 'PATIENT',
      title: demo.patient.title,
      firstName: demo.patient.first,
      lastName: demo.patient.last,
      dob: demo.patient.dob,
      emailVerifiedAt: new Date(),
    });
    await repo.linkPatientToPhysician(db, patient!.id, physician!.id);
  }
}
