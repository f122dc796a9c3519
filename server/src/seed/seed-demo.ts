import type { Db } from '../db/client.js';
import { addToRoster, hasNoHospital, seedDemoHospitals } from '../modules/hospitals/index.js';
import {
  accountExists,
  hashPassword,
  hasNoAccount,
  seedDemoPhysicianAndPatient,
} from '../modules/identity/index.js';
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
  return (await hasNoHospital(db)) && (await hasNoAccount(db));
}

/**
 * Creates whatever of the demo world is missing; running it twice changes nothing. An account that
 * exists is left as it is: its password is never reset to the published one.
 */
export async function seedDemo(db: Db): Promise<void> {
  const demoHash = await hashPassword(DEMO_PASSWORD);
  const hospitalIds = await seedDemoHospitals(db, DEMO_HOSPITALS);

  for (const r of DEMO_RADIOLOGISTS) {
    if (!(await accountExists(db, r.email))) {
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

  const hospitalId = hospitalIds.get(DEMO_PHYSICIAN.hospital)!;
  await seedDemoPhysicianAndPatient(db, {
    passwordHash: demoHash,
    physician: { ...DEMO_PHYSICIAN, title: 'Dr.', hospitalId },
    patient: DEMO_PATIENT,
    rosterEntry: () =>
      addToRoster(db, {
        hospitalId,
        firstName: DEMO_PHYSICIAN.first,
        lastName: DEMO_PHYSICIAN.last,
        dob: DEMO_PHYSICIAN.dob,
      }),
  });
}
