import crypto from 'node:crypto';
import type { AppContext } from '../../context.js';
import { InvalidInput } from '../../lib/errors.js';
import { isPublicPictureOf } from '../access/index.js';
import type { Storage } from '../storage/index.js';
import { extensionOfMime } from '../storage/index.js';
import { claimUpload, forgetUploadFiles, moveIntoStorage } from '../uploads/index.js';

/** Where physicians' and radiologists' crops are served without sign-in (docs/api.md §7.4). */
export const PUBLIC_PICTURES_PATH = '/api/profile-pictures/';
export const PICTURE_CROP_SIZE = 100;
/** A picture with more pixels than a 50-megapixel camera's is refused before it reaches the crop job. */
export const MAX_PICTURE_PIXELS = 50_000_000;

interface PictureColumns {
  pictureId: string | null;
  pictureCropKey: string | null;
}

/** The stable, cache-friendly URL of a physician's or radiologist's crop; it changes with the picture. */
export function publicPictureUrl(person: PictureColumns): string | null {
  return person.pictureId && person.pictureCropKey ? `${PUBLIC_PICTURES_PATH}${person.pictureId}.webp` : null;
}

/**
 * A patient's picture is private: a signed, expiring URL, handed only to the patient and their care
 * team, issued to `viewerId` so that its download is audited.
 */
export function privatePictureUrl(
  storage: Storage,
  patient: PictureColumns & { id: string },
  viewerId: string,
): string | null {
  return patient.pictureId && patient.pictureCropKey
    ? storage.signedUrl(patient.pictureCropKey, { viewerId, patientId: patient.id })
    : null;
}

export function pictureUrlFor(
  storage: Storage,
  person: PictureColumns & { id: string; role: 'PATIENT' | 'PHYSICIAN' | 'RADIOLOGIST' },
  viewerId: string,
): string | null {
  return isPublicPictureOf(person) ? publicPictureUrl(person) : privatePictureUrl(storage, person, viewerId);
}

export function pictureCropKey(pictureId: string): string {
  return `profiles/${pictureId}-${PICTURE_CROP_SIZE}.webp`;
}

export interface StoredPicture {
  id: string;
  key: string;
  uploadId: string;
}

/** Claims a finished `profile` upload of the caller and moves it into storage as a new picture. */
export async function storePicture(ctx: AppContext, userId: string, url: string): Promise<StoredPicture> {
  const upload = await claimUpload(ctx, ctx.db, {
    url,
    userId,
    purpose: 'profile',
    field: 'profile_image_url',
  });
  if (upload.width * upload.height > MAX_PICTURE_PIXELS) {
    await forgetUploadFiles(ctx, upload.id);
    throw new InvalidInput(
      'profile_image_url',
      'The picture is too large; it may have at most 50 megapixels.',
    );
  }
  const id = crypto.randomUUID();
  const key = `profiles/${id}.${extensionOfMime(upload.contentType)}`;
  await moveIntoStorage(ctx, upload, key, MAX_PICTURE_PIXELS);
  return { id, key, uploadId: upload.id };
}

/** Deletes a replaced or removed picture's files; a failure only leaves an orphan file behind. */
export async function deletePictureFiles(
  ctx: AppContext,
  picture: { pictureId: string | null; pictureKey: string | null },
): Promise<void> {
  if (!picture.pictureId || !picture.pictureKey) {
    return;
  }
  try {
    await ctx.storage.delete(picture.pictureKey);
    await ctx.storage.delete(pictureCropKey(picture.pictureId));
  } catch (err) {
    ctx.log.warn({ err }, 'could not delete an old profile picture');
  }
}
