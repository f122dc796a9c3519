import type { Db } from '../db/client.js';
import { listImagesWithoutThumbnail } from '../modules/images/images.repository.js';
import type { JobDefinition, JobSender } from './job-queue.js';
import { listPicturesWithoutCrop } from '../modules/users/profile.repository.js';
import { PROFILE_PICTURE_JOB } from './profile-picture.job.js';
import { STUDY_PREVIEW_JOB } from './study-preview.job.js';
import { THUMBNAIL_JOB } from './thumbnail.job.js';

/**
 * Queues a thumbnail for any image (a preview for any study), and a crop for any profile picture, that still lacks one
 * (a lost queue entry, a crash between the commit and the queueing).
 */
export function thumbnailSweepJob(db: Db, jobs: Pick<JobSender, 'send'>): JobDefinition<object> {
  return {
    name: 'image-thumbnail-sweep',
    schedule: '*/5 * * * *',
    retryLimit: 1,
    async handle() {
      for (const item of await listImagesWithoutThumbnail(db, 500)) {
        if (item.kind === 'study') {
          await jobs.send(STUDY_PREVIEW_JOB, { itemId: item.id }, { singletonKey: item.id });
        } else {
          await jobs.send(THUMBNAIL_JOB, { imageId: item.id }, { singletonKey: item.id });
        }
      }
      for (const picture of await listPicturesWithoutCrop(db, 500)) {
        await jobs.send(PROFILE_PICTURE_JOB, picture, { singletonKey: picture.pictureId });
      }
    },
  };
}
