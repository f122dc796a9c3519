import type { z } from 'zod';
import {
  NO_BIO_FOR_PATIENTS,
  RATING_PREFERENCE_RADIOLOGISTS_ONLY,
  type ProfileResponse,
  type updateProfileBodySchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError, InvalidInput } from '../../lib/errors.js';
import type { Actor } from '../../lib/actor.js';
import { PROFILE_PICTURE_JOB } from './profile-picture.job.js';
import { careTeamOf, pictureReadFilter } from '../access/index.js';
import { auditOwnProfileChange, auditReads } from '../audit/index.js';
import { forgetUploadFiles } from '../uploads/index.js';
import {
  deletePictureFiles,
  pictureUrlFor,
  publicPictureUrl,
  storePicture,
  type StoredPicture,
} from './profile-picture.js';
import * as repo from './profile.repository.js';

type UpdateProfileBody = z.output<typeof updateProfileBodySchema>;

/** The patient's physician first, then the radiologists they have paid, by last and first name. */
async function listCareTeam(ctx: AppContext, user: Actor, patientId: string) {
  const team = await careTeamOf(ctx, user, patientId);
  const ids = [...(team.physicianId ? [team.physicianId] : []), ...team.radiologistIds];
  const members = ids.length > 0 ? await repo.listStaff(ctx.db, ids) : [];
  return [
    ...members.filter((member) => member.id === team.physicianId),
    ...members.filter((member) => member.id !== team.physicianId),
  ];
}

/** The caller's own profile; a patient also gets their care team (docs/api.md §8.2). */
export async function getProfile(ctx: AppContext, user: Actor, ip: string): Promise<ProfileResponse> {
  const row = await repo.findProfile(ctx.db, user.id);
  if (!row) {
    throw new AppError('NOT_FOUND');
  }
  const isPatient = row.role === 'PATIENT';
  const staff = isPatient ? await listCareTeam(ctx, user, row.id) : [];
  if (isPatient) {
    await auditReads(ctx, [
      { actorId: user.id, patientId: row.id, action: 'read', recordType: 'profile', recordId: row.id, ip },
    ]);
  }
  const finishedUrl = pictureUrlFor(ctx.storage, row, user.id);
  // A patient's own picture is patient data (audited when downloaded); a staff member's is not.
  const ownAudience = isPatient ? { viewerId: user.id, patientId: row.id } : null;
  const isProcessing = row.pictureKey !== null && row.pictureCropKey === null;
  return {
    profile: {
      uid: row.id,
      title: row.title,
      first_name: row.firstName,
      last_name: row.lastName,
      email: row.email,
      dob: row.dob,
      // The owner sees a new picture at once; others only once its crop is made.
      profile_image_url: isProcessing ? ctx.storage.signedUrl(row.pictureKey!, ownAudience) : finishedUrl,
      profile_image_processing: isProcessing,
      bio: row.bio,
      expertise: row.expertise,
      years_of_exp: row.yearsOfExp,
      allow_ratings: row.allowRatings,
      role: row.role,
    },
    staff: staff.map((member) => ({
      uid: member.id,
      role: member.role,
      title: member.title,
      first_name: member.firstName,
      last_name: member.lastName,
      profile_image_url: publicPictureUrl(member),
    })),
  };
}

/** Changes only the fields sent, within the role rules of docs/api.md §8.3. */
export async function updateProfile(
  ctx: AppContext,
  user: Actor,
  body: UpdateProfileBody,
  ip: string,
): Promise<void> {
  if (body.bio !== undefined && user.role === 'PATIENT') {
    throw new InvalidInput('bio', NO_BIO_FOR_PATIENTS);
  }
  if (body.enableRatingSystem !== undefined && user.role !== 'RADIOLOGIST') {
    throw new InvalidInput('enableRatingSystem', RATING_PREFERENCE_RADIOLOGISTS_ONLY);
  }
  // The new picture's bytes move before the transaction, so none stays open while a file moves.
  let picture: StoredPicture | null | undefined;
  if (body.profile_image_url !== undefined) {
    picture =
      body.profile_image_url === null ? null : await storePicture(ctx, user.id, body.profile_image_url);
  }
  let replaced: Awaited<ReturnType<typeof repo.lockPicture>>;
  try {
    replaced = await ctx.db.transaction(async (tx) => {
      const previous = picture === undefined ? undefined : await repo.lockPicture(tx, user.id);
      await repo.updateProfile(tx, user.id, {
        bio: body.bio,
        allowRatings: body.enableRatingSystem,
        picture: picture && { id: picture.id, key: picture.key },
      });
      await auditOwnProfileChange(tx, user, ip);
      return previous;
    });
  } catch (err) {
    if (picture) {
      await ctx.storage.delete(picture.key);
    }
    throw err;
  }
  if (picture) {
    await forgetUploadFiles(ctx, picture.uploadId);
    // After the commit; the thumbnail sweep catches a picture whose job was never queued.
    await ctx.jobs.sendAfterCommit(
      PROFILE_PICTURE_JOB,
      { userId: user.id, pictureId: picture.id },
      { singletonKey: picture.id },
    );
  }
  if (replaced) {
    await deletePictureFiles(ctx, replaced);
  }
}

/** The crop behind a public picture URL: only pictures anyone signed out may see (`picture:read`). */
export function findPublicPictureCrop(ctx: AppContext, pictureId: string): Promise<string | undefined> {
  return repo.findPictureCrop(ctx.db, pictureId, pictureReadFilter(undefined));
}
