import sharp from 'sharp';
import type { Db } from '../../db/client.js';
import { findPicture, setPictureCrop } from './profile.repository.js';
import { MAX_PICTURE_PIXELS, PICTURE_CROP_SIZE, pictureCropKey } from './profile-picture.js';
import type { Storage } from '../storage/index.js';
import type { JobDefinition } from '../../jobs/job-queue.js';

export const PROFILE_PICTURE_JOB = 'profile-picture-crop';

export interface ProfilePictureJobData {
  userId: string;
  pictureId: string;
}

/** Makes the 100×100 centre-cropped WebP of a profile picture. Running it twice does no harm. */
export function profilePictureJob(db: Db, storage: Storage): JobDefinition<ProfilePictureJobData> {
  return {
    name: PROFILE_PICTURE_JOB,
    retryLimit: 5,
    async handle({ userId, pictureId }) {
      const picture = await findPicture(db, userId);
      // The user may have changed or removed the picture since the job was queued.
      if (!picture?.pictureKey || picture.pictureId !== pictureId || picture.pictureCropKey) {
        return;
      }
      // Read whole, as the thumbnail job does: a read error fails the job, never the process.
      const source = await storage.readAll(picture.pictureKey);
      const crop = sharp(source, { failOn: 'none', limitInputPixels: MAX_PICTURE_PIXELS })
        .rotate()
        .resize(PICTURE_CROP_SIZE, PICTURE_CROP_SIZE, { fit: 'cover', position: 'centre' })
        .webp({ quality: 82 });
      const key = pictureCropKey(pictureId);
      await storage.putBuffer(key, await crop.toBuffer());
      if (!(await setPictureCrop(db, userId, pictureId, key))) {
        await storage.delete(key);
      }
    },
  };
}
