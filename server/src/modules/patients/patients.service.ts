import type { z } from 'zod';
import {
  IMAGES_PER_PATIENT_CARD,
  PATHS,
  type addPatientBodySchema,
  type Patient,
  type PatientPage,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { InvalidInput, RuleViolation } from '../../lib/errors.js';
import type { Queryable } from '../../db/client.js';
import type { Actor } from '../../lib/actor.js';
import { patientReadFilter } from '../access/index.js';
import { auditChange, auditReads } from '../audit/index.js';
import { createAccount, findAccountByEmail } from '../identity/index.js';
import {
  detailsMatch,
  reclaimUnverifiedPatient,
  sendPatientInvitation,
  type PatientDetails,
} from '../identity/index.js';
import { summarizeImagesOfPatients } from '../archive-items/index.js';
import { notify } from '../notifications/index.js';
import { privatePictureUrl } from '../users/index.js';
import * as repo from './patients.repository.js';

type AddPatientBody = z.output<typeof addPatientBodySchema>;

export interface AddPatientResult {
  status: 200 | 201;
  msg: string;
}

const DETAILS_MISMATCH = "The details do not match this patient's account.";

async function linkExistingPatient(
  ctx: AppContext,
  physician: Actor,
  patient: { id: string; role: string } & PatientDetails,
  details: PatientDetails,
  ip: string,
): Promise<AddPatientResult> {
  if (patient.role !== 'PATIENT') {
    throw new RuleViolation('This email does not belong to a patient.');
  }
  // Knowing an address is not enough to take someone's records into one's list.
  if (!detailsMatch(patient, details)) {
    throw new RuleViolation(DETAILS_MISMATCH);
  }
  await ctx.db.transaction(async (tx) => {
    const isLinked = await repo.linkPatient(tx, patient.id, physician.id);
    if (!isLinked) {
      const current = await repo.findPhysicianOf(tx, patient.id);
      throw new RuleViolation(
        current === physician.id
          ? 'This patient is already in your list.'
          : 'This patient is already assigned to another physician.',
      );
    }
    await notify(tx, {
      userId: patient.id,
      message: 'You have been added as a patient.',
      to: PATHS.dashboard,
    });
    await auditChange(tx, {
      actorId: physician.id,
      patientId: patient.id,
      action: 'update',
      recordType: 'patient',
      recordId: patient.id,
      ip,
    });
  });
  return { status: 200, msg: 'Successfully added patient' };
}

function requirePatientDetails(body: AddPatientBody): PatientDetails {
  if (!body.first_name) {
    throw new InvalidInput('first_name', 'First name is required');
  }
  if (!body.last_name) {
    throw new InvalidInput('last_name', 'Last name is required');
  }
  if (!body.dob) {
    throw new InvalidInput('dob', 'Date of birth must be a real date in the past');
  }
  return { firstName: body.first_name, lastName: body.last_name, dob: body.dob };
}

/**
 * An unknown address, or one whose account never proved it: the patient gets an account (or takes
 * over the unproved one) and an invitation to the address the physician gave.
 */
async function invitePatient(
  ctx: AppContext,
  physician: Actor,
  email: string,
  details: PatientDetails,
  unverifiedAccountId: string | undefined,
  ip: string,
): Promise<AddPatientResult> {
  await ctx.db.transaction(async (tx) => {
    const patient = unverifiedAccountId
      ? await reclaimUnverifiedPatient(ctx, tx, unverifiedAccountId, details)
      : await createAccount(tx, { email, role: 'PATIENT', ...details });
    if (!patient) {
      throw new RuleViolation('This email is already in use.');
    }
    await repo.linkPatient(tx, patient.id, physician.id);
    await auditChange(tx, {
      actorId: physician.id,
      patientId: patient.id,
      action: 'create',
      recordType: 'patient',
      recordId: patient.id,
      ip,
    });
    await sendPatientInvitation(ctx, tx, patient, physician);
  });
  return { status: 201, msg: 'Successfully added new patient' };
}

export async function addPatient(
  ctx: AppContext,
  physician: Actor,
  body: AddPatientBody,
  ip: string,
): Promise<AddPatientResult> {
  const existing = await findAccountByEmail(ctx.db, body.email);
  if (existing && existing.role !== 'PATIENT') {
    throw new RuleViolation('This email does not belong to a patient.');
  }
  const details = requirePatientDetails(body);
  if (existing && existing.emailVerifiedAt !== null) {
    return linkExistingPatient(ctx, physician, existing, details, ip);
  }
  return invitePatient(ctx, physician, body.email, details, existing?.id, ip);
}

/** The patient's physician, if they have one (for notifications, not access: see access.policy.ts). */
export function findPhysicianOf(db: Queryable, patientId: string): Promise<string | undefined> {
  return repo.findPhysicianOf(db, patientId);
}

export async function listPatients(
  ctx: AppContext,
  user: Actor,
  page: { limit: number; cursor?: string },
  ip: string,
): Promise<PatientPage> {
  const after = decodeCursor(page.cursor, 3) as [string, string, string] | undefined;
  // Physicians see their patients; radiologists only the patients, and images, they were paid for.
  const rows = await repo.listPatients(ctx.db, (patientId) => patientReadFilter(user, patientId), {
    limit: page.limit + 1,
    after,
  });
  const pageRows = rows.slice(0, page.limit);
  const { newest, counts } = await summarizeImagesOfPatients(
    ctx,
    user,
    pageRows.map((row) => row.id),
    IMAGES_PER_PATIENT_CARD,
  );
  const patients: Patient[] = pageRows.map((row) => ({
    uid: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    dob: row.dob,
    profile_image_url: privatePictureUrl(ctx.storage, row, user.id),
    image_count: counts.get(row.id) ?? 0,
    images: newest.get(row.id) ?? [],
  }));
  await auditReads(
    ctx,
    patients.map((patient) => ({
      actorId: user.id,
      patientId: patient.uid,
      action: 'read' as const,
      recordType: 'patient-list' as const,
      recordId: patient.uid,
      ip,
    })),
  );
  const last = pageRows.at(-1);
  return {
    patients,
    next_cursor:
      rows.length > page.limit && last ? encodeCursor([last.lastName, last.firstName, last.id]) : null,
  };
}
