import type { z } from 'zod';
import {
  ANNOTATION_MESSAGES,
  imageViewPath,
  PATHS,
  type KeyImage,
  type updateNoteBodySchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { AppError, InvalidInput, RuleViolation } from '../../lib/errors.js';
import type { Actor } from '../../lib/actor.js';
import { awaitsPayment, may } from '../access/index.js';
import { auditChange } from '../audit/index.js';
import { notify } from '../notifications/index.js';
import { findPhysicianOf } from '../patients/index.js';
import { queueStudyReports } from '../reports/index.js';
import { areFramesOfStudy } from './study-frames.js';
import * as repo from './archive-items.repository.js';

const UNPAID =
  'The patient has not paid for this image yet. Please wait for the patient to pay before updating the note.';

/** Key images name frames of the item's own study; a raster image has none. */
async function checkKeyImages(
  ctx: AppContext,
  item: { id: string; kind: 'image' | 'study' },
  keyImages: KeyImage[] | undefined,
): Promise<void> {
  if (!keyImages || keyImages.length === 0) {
    return;
  }
  if (item.kind !== 'study') {
    throw new InvalidInput('key_images', ANNOTATION_MESSAGES.keyImagesOnImage);
  }
  const references = keyImages.map((keyImage) => ({
    sopInstanceUid: keyImage.sop_instance_uid,
    frame: keyImage.frame,
  }));
  if (!(await areFramesOfStudy(ctx.db, item.id, references))) {
    throw new InvalidInput('key_images', ANNOTATION_MESSAGES.notInStudy);
  }
}

/** Writes the caller's note with its key images, replacing both; returns the note as stored. */
export async function updateNote(
  ctx: AppContext,
  user: Actor,
  imageId: string,
  body: z.output<typeof updateNoteBodySchema>,
  ip: string,
): Promise<string> {
  const allowed = await may(ctx, user, 'note:write', imageId);
  if (!allowed && (await awaitsPayment(ctx, user, imageId))) {
    throw new RuleViolation(UNPAID);
  }
  const row = allowed ? await repo.findImage(ctx.db, imageId) : undefined;
  if (!row) {
    throw new AppError('NOT_FOUND');
  }
  await checkKeyImages(ctx, row, body.key_images);
  const isRadiologist = user.role === 'RADIOLOGIST';
  await ctx.db.transaction(async (tx) => {
    const { isNew } = await repo.upsertNote(tx, {
      itemId: imageId,
      authorId: user.id,
      authorRole: isRadiologist ? 'RADIOLOGIST' : 'PHYSICIAN',
      note: body.note,
      keyImages: body.key_images,
    });
    // A physician's note notifies no one; a radiologist's tells the patient and the physician.
    if (isRadiologist) {
      await notifyRadiologistNote(tx, row.patientId, imageId, isNew);
    }
    // A radiologist's analysis of a study also travels with the study, as SR and KO documents
    // written in the background (an emptied note removes them); the note is saved either way.
    if (isRadiologist && row.kind === 'study') {
      await queueStudyReports(ctx, tx, {
        itemId: imageId,
        authorId: user.id,
        emailVerified: user.emailVerified,
      });
    }
    await auditChange(tx, {
      actorId: user.id,
      patientId: row.patientId,
      action: 'update',
      recordType: 'note',
      recordId: imageId,
      ip,
    });
  });
  return body.note;
}

async function notifyRadiologistNote(tx: Queryable, patientId: string, imageId: string, isFirst: boolean) {
  if (!isFirst) {
    await notify(tx, {
      userId: patientId,
      message: 'Your image note has been updated.',
      to: imageViewPath(imageId),
    });
    return;
  }
  const physicianId = await findPhysicianOf(tx, patientId);
  await notify(
    tx,
    { userId: patientId, message: 'Your image has a new note.', to: imageViewPath(imageId) },
    { userId: patientId, message: "Don't forget to rate your radiologist.", to: PATHS.secondOpinion },
    ...(physicianId
      ? [
          {
            userId: physicianId,
            message: "A radiologist has added a note to your patient's image.",
            to: PATHS.patients,
          },
        ]
      : []),
  );
}
