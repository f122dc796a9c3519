import { count } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { hospitals } from '../db/schema/hospitals.js';
import { users } from '../db/schema/users.js';
import { hashPassword } from '../modules/identity/index.js';
import * as identityRepo from '../modules/identity/identity.repository.js';
import * as hospitalsRepo from '../modules/hospitals/hospitals.repository.js';
import { createRadiologist } from '../modules/users/index.js';
import {
  DEMO_ACCOUNTS_WITH_PASSWORD,
  DEMO_HOSPITALS,
  DEMO_PASSWORD,
  DEMO_PATIENT,
  DEMO_PHYSICIAN,
  DEMO_RADIOLOGISTS,
} from './demo-data.js';

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [h] = await db.select({ n: count() }).from(hospitals);
  const [u] = await db.select({ n: count() }).from(users);
  return h?.n === 0 && u?.n === 0;
}

/**
 * Creates whatever of the demo world is missing; running it twice changes nothing. An account that
 * exists is left as it is: its password is never reset to the published one.
 */
export async function seedDemo(db: Db): Promise<void> {
  const demoHash = await hashPassword(DEMO_PASSWORD);
  const hospitalIds = new Map<string, string>();
  for (const hospital of DEMO_HOSPITALS) {
    const existing = await hospitalsRepo.findHospitalByName(db, hospital.name);
    const row = existing ?? (await hospitalsRepo.upsertHospital(db, hospital.name));
    hospitalIds.set(hospital.name, row.id);
    if (!existing) {
      for (const person of hospital.roster) {
        await hospitalsRepo.insertRosterPhysician(db, {
          hospitalId: row.id,
          firstName: person.first,
          lastName: person.last,
          dob: person.dob,
        });
      }
    }
  }

  for (const r of DEMO_RADIOLOGISTS) {
    if (!(await identityRepo.findUserByEmail(db, r.email))) {
      await createRadiologist(db, {
        email: r.email,
        password: DEMO_ACCOUNTS_WITH_PASSWORD.includes(r.email) ? DEMO_PASSWORD : null,
        title: 'Dr.',
        firstName: r.first,
        lastName: r.last,
        dob: r.dob,
        expertise: r.expertise,
        bio: r.bio,
        yearsOfExp: r.years,
        feeDollars: r.fee,
      });
    }
  }

  let physician = await identityRepo.findUserByEmail(db, DEMO_PHYSICIAN.email);
  if (!physician) {
    const hospitalId = hospitalIds.get(DEMO_PHYSICIAN.hospital)!;
    physician = await identityRepo.insertUser(db, {
      email: DEMO_PHYSICIAN.email,
      passwordHash: demoHash,
      role: 'PHYSICIAN',
      title: 'Dr.',
      firstName: DEMO_PHYSICIAN.first,
      lastName: DEMO_PHYSICIAN.last,
      dob: DEMO_PHYSICIAN.dob,
      hospitalId,
      emailVerifiedAt: new Date(),
    });
    const entry = await hospitalsRepo.insertRosterPhysician(db, {
      hospitalId,
      firstName: DEMO_PHYSICIAN.first,
      lastName: DEMO_PHYSICIAN.last,
      dob: DEMO_PHYSICIAN.dob,
    });
    await identityRepo.claimRosterEntry(db, entry.id, physician!.id);
  }

  let patient = await identityRepo.findUserByEmail(db, DEMO_PATIENT.email);
  if (!patient) {
    patient = await identityRepo.insertUser(db, {
      email: DEMO_PATIENT.email,
      passwordHash: demoHash,
      role: 'PATIENT',
      title: DEMO_PATIENT.title,
      firstName: DEMO_PATIENT.first,
      lastName: DEMO_PATIENT.last,
      dob: DEMO_PATIENT.dob,
      emailVerifiedAt: new Date(),
    });
    await identityRepo.linkPatientToPhysician(db, patient!.id, physician!.id);
  }
}
