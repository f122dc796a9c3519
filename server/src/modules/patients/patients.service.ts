import type { z } from 'zod';
import {
  displayName,
  IMAGES_PER_PATIENT_CARD,
  PATHS,
  type addPatientBodySchema,
  type Patient,
  type PatientPage,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { InvalidInput, RuleViolation } from '../../lib/errors.js';
import type { AuthUser } from '../../plugins/auth.js';
import { auditChange } from '../audit/audit.service.js';
import { createPasswordLink, INVITE_LINK_DAYS } from '../identity/identity.service.js';
import { findUserByEmail, insertUser } from '../identity/identity.repository.js';
import { countImagesOfPatients, listNewestImagesOfPatients } from '../images/images.repository.js';
import { presentImageRows } from '../images/images.service.js';
import { notify } from '../notifications/notifications.service.js';
import { privatePictureUrl } from '../users/profile-picture.js';
import * as repo from './patients.repository.js';

type AddPatientBody = z.output<typeof addPatientBodySchema>;

export interface AddPatientResult {
  status: 200 | 201;
  msg: string;
}

async function linkExistingPatient(
  ctx: AppContext,
  physician: AuthUser,
  patient: { id: string; role: string },
  ip: string,
): Promise<AddPatientResult> {
  if (patient.role !== 'PATIENT') {
    throw new RuleViolation('This email does not belong to a patient.');
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

function requireNewPatientDetails(body: AddPatientBody) {
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

async function inviteNewPatient(
  ctx: AppContext,
  physician: AuthUser,
  body: AddPatientBody,
  ip: string,
): Promise<AddPatientResult> {
  const details = requireNewPatientDetails(body);
  const patient = await ctx.db.transaction(async (tx) => {
    // No password: the invitation link is how the patient chooses one.
    const created = await insertUser(tx, { email: body.email, role: 'PATIENT', ...details });
    if (!created) {
      throw new RuleViolation('This email is already in use.');
    }
    await repo.linkPatient(tx, created.id, physician.id);
    await auditChange(tx, {
      actorId: physician.id,
      patientId: created.id,
      action: 'create',
      recordType: 'patient',
      recordId: created.id,
      ip,
    });
    return created;
  });
  const link = await createPasswordLink(ctx, patient.id, 'invite');
  const doctor = displayName({
    title: physician.title,
    first_name: physician.firstName,
    last_name: physician.lastName,
  });
  await ctx.mailer.enqueue({
    to: patient.email,
    subject: `${doctor} invited you to Radiology Archive`,
    text: [
      `Hello ${details.firstName} ${details.lastName},`,
      '',
      `${doctor} added you as a patient on Radiology Archive, where you can see your medical images and your physician's notes.`,
      `To choose your password, open this link within ${INVITE_LINK_DAYS} days:`,
      '',
      link,
      '',
      'If you did not expect this, you can ignore this email.',
    ].join('\n'),
    link,
  });
  return { status: 201, msg: 'Successfully added new patient' };
}

export async function addPatient(
  ctx: AppContext,
  physician: AuthUser,
  body: AddPatientBody,
  ip: string,
): Promise<AddPatientResult> {
  const existing = await findUserByEmail(ctx.db, body.email);
  return existing
    ? linkExistingPatient(ctx, physician, existing, ip)
    : inviteNewPatient(ctx, physician, body, ip);
}

export async function listPatients(
  ctx: AppContext,
  user: AuthUser,
  page: { limit: number; cursor?: string },
  ip: string,
): Promise<PatientPage> {
  const after = decodeCursor(page.cursor, 3) as [string, string, string] | undefined;
  // Radiologists see only the patients, and the images, they have been paid for.
  const paidFor = user.role === 'RADIOLOGIST' ? user.id : undefined;
  const rows = paidFor
    ? await repo.listPatientsOfRadiologist(ctx.db, paidFor, { limit: page.limit + 1, after })
    : await repo.listPatientsOfPhysician(ctx.db, user.id, { limit: page.limit + 1, after });
  const pageRows = rows.slice(0, page.limit);
  const ids = pageRows.map((row) => row.id);
  const [imageRows, counts] =
    ids.length > 0
      ? await Promise.all([
          listNewestImagesOfPatients(ctx.db, ids, IMAGES_PER_PATIENT_CARD, paidFor),
          countImagesOfPatients(ctx.db, ids, paidFor),
        ])
      : [[], new Map<string, number>()];
  const images = await presentImageRows(ctx, imageRows);
  const patients: Patient[] = pageRows.map((row) => ({
    uid: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    email: row.email,
    dob: row.dob,
    profile_image_url: privatePictureUrl(ctx.storage, row),
    image_count: counts.get(row.id) ?? 0,
    images: images.filter((_image, index) => imageRows[index]!.patientId === row.id),
  }));
  ctx.auditor.record(
    ...patients.map((patient) => ({
      actorId: user.id,
      patientId: patient.uid,
      action: 'read' as const,
      recordType: 'patient' as const,
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
