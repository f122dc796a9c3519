import type { Db } from '../db/client.js';
import { listImagesWithoutThumbnail } from '../modules/images/images.repository.js';
import type { JobDefinition, JobSender } from './job-queue.js';
import { THUMBNAIL_JOB } from './thumbnail.job.js';

/** Queues a thumbnail for any image that still lacks one (a lost queue entry, a crash mid-upload). */
export function thumbnailSweepJob(db: Db, jobs: JobSender): JobDefinition<object> {
  return {
    name: 'image-thumbnail-sweep',
    schedule: '*/5 * * * *',
    retryLimit: 1,
    async handle() {
      for (const image of await listImagesWithoutThumbnail(db, 500)) {
        await jobs.send(THUMBNAIL_JOB, { imageId: image.id }, { singletonKey: image.id });
      }
    },
  };
}
