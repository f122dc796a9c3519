import sharp from 'sharp';
import type { Db } from '../../db/client.js';
import { findImage, setThumbnail } from './archive-items.repository.js';
import type { Storage } from '../storage/index.js';
import type { JobDefinition } from '../../jobs/job-queue.js';

export const THUMBNAIL_JOB = 'image-thumbnail';
export const THUMBNAIL_SIZE = 200;

export interface ThumbnailJobData {
  imageId: string;
}

/** Makes the 200×200 (fit inside) WebP thumbnail of an image. Running it twice does no harm. */
export function thumbnailJob(db: Db, storage: Storage, maxPixels: number): JobDefinition<ThumbnailJobData> {
  return {
    name: THUMBNAIL_JOB,
    retryLimit: 5,
    async handle({ imageId }) {
      const image = await findImage(db, imageId);
      if (!image || image.thumbnailKey) {
        return;
      }
      // Read whole (sharp buffers a stream anyway): a read error then fails the job instead of
      // surfacing as an unhandled stream error that would take the process down.
      const source = await storage.readAll(image.storageKey);
      const resize = sharp(source, { failOn: 'none', limitInputPixels: maxPixels })
        .rotate()
        .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 80 });
      const thumbnail = await resize.toBuffer();
      const key = `thumbnails/${image.id}.webp`;
      await storage.putBuffer(key, thumbnail);
      await setThumbnail(db, image.id, key);
    },
  };
}
