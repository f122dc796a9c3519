import type { AppContext } from '../../context.js';
import type { AuthUser } from '../../plugins/auth.js';
import { findPhysicianOf } from '../patients/patients.repository.js';
import { invoiceStateFor, isPaidByPatient } from '../payments/invoices.service.js';

/** Which of a patient's images a caller may see: all of them, only those paid to this radiologist, or none. */
export type ImageScope = { kind: 'all' } | { kind: 'paid'; radiologistId: string };

export async function imageScopeFor(
  ctx: AppContext,
  user: AuthUser,
  patientId: string,
): Promise<ImageScope | null> {
  switch (user.role) {
    case 'PATIENT':
      return user.id === patientId ? { kind: 'all' } : null;
    case 'PHYSICIAN':
      return (await findPhysicianOf(ctx.db, patientId)) === user.id ? { kind: 'all' } : null;
    case 'RADIOLOGIST':
      return (await isPaidByPatient(ctx, user.id, patientId))
        ? { kind: 'paid', radiologistId: user.id }
        : null;
  }
}

/** Readers of one image: the patient, their physician, and a radiologist whose invoice for it is paid. */
export async function canReadImage(
  ctx: AppContext,
  user: AuthUser,
  image: { id: string; patientId: string },
): Promise<boolean> {
  if (user.role === 'RADIOLOGIST') {
    return (await invoiceStateFor(ctx, image.id, user.id)) === 'paid';
  }
  return (await imageScopeFor(ctx, user, image.patientId)) !== null;
}

/** Who may upload for a patient: their physician, or a radiologist the patient has paid. */
export async function canUploadFor(ctx: AppContext, user: AuthUser, patientId: string): Promise<boolean> {
  switch (user.role) {
    case 'PHYSICIAN':
      return (await findPhysicianOf(ctx.db, patientId)) === user.id;
    case 'RADIOLOGIST':
      return isPaidByPatient(ctx, user.id, patientId);
    case 'PATIENT':
      return false;
  }
}
