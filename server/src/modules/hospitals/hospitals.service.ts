import type { Hospital } from '@ra/shared';
import crypto from 'node:crypto';
import type { Db } from '../../db/client.js';
import { announceChange } from '../../db/change-feed.js';
import { RuleViolation } from '../../lib/errors.js';
import * as repo from './hospitals.repository.js';

export async function listHospitals(db: Db): Promise<Hospital[]> {
  const rows = await repo.listHospitals(db);
  return rows.map((row) => ({ uid: row.id, name: row.name }));
}

export interface TaggedHospitalList {
  hospitals: Hospital[];
  etag: string;
}

/** The list with an ETag of its content, so browsers can revalidate it for a 304. */
export async function listHospitalsTagged(db: Db): Promise<TaggedHospitalList> {
  const hospitals = await listHospitals(db);
  const digest = crypto.createHash('sha256').update(JSON.stringify(hospitals)).digest('base64url');
  return { hospitals, etag: `"h${digest.slice(0, 22)}"` };
}

export async function addHospital(db: Db, name: string): Promise<Hospital> {
  const existing = await repo.findHospitalByName(db, name);
  if (existing) {
    throw new RuleViolation(`A hospital named "${name}" already exists.`);
  }
  const row = await repo.upsertHospital(db, name);
  // Running servers cache the list; this may run in the admin CLI, beside them.
  await announceChange(db, 'hospitals');
  return { uid: row.id, name: row.name };
}

export async function addRosterPhysician(
  db: Db,
  entry: { hospitalName: string; firstName: string; lastName: string; dob: string },
) {
  const hospital = await repo.findHospitalByName(db, entry.hospitalName);
  if (!hospital) {
    throw new RuleViolation(`No hospital is named "${entry.hospitalName}". See list-hospitals.`);
  }
  return repo.insertRosterPhysician(db, {
    hospitalId: hospital.id,
    firstName: entry.firstName,
    lastName: entry.lastName,
    dob: entry.dob,
  });
}
