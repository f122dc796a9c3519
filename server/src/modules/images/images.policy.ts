import type { Queryable } from '../../db/client.js';
import type { AuthUser } from '../../plugins/auth.js';
import { findPhysicianOf } from '../patients/patients.repository.js';

/**
 * Who may see a patient's images: the patient and their physician. Radiologists are admitted per
 * paid image with the payments work; until then they see none. Everyone else gets a 404.
 */
export async function canReadPatientImages(
  db: Queryable,
  user: AuthUser,
  patientId: string,
): Promise<boolean> {
  switch (user.role) {
    case 'PATIENT':
      return user.id === patientId;
    case 'PHYSICIAN':
      return (await findPhysicianOf(db, patientId)) === user.id;
    case 'RADIOLOGIST':
      return false;
  }
}

/** Who may upload for or annotate a patient's images: their physician (radiologists arrive with payments). */
export async function canAnnotatePatientImages(
  db: Queryable,
  user: AuthUser,
  patientId: string,
): Promise<boolean> {
  return user.role === 'PHYSICIAN' && (await findPhysicianOf(db, patientId)) === user.id;
}
