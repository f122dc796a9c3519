import type { Db } from '../../db/client.js';
import type { JobDefinition, JobSender } from '../../jobs/job-queue.js';
import { itemsWithoutThumbnail, THUMBNAIL_JOB } from '../archive-items/index.js';
import { STUDY_PREVIEW_JOB } from './study-preview.job.js';

/**
 * Queues a thumbnail for any image, and a preview for any study, that still lacks one (a lost queue
 * entry, a crash between the commit and the queueing).
 */
export function thumbnailSweepJob(db: Db, jobs: Pick<JobSender, 'send'>): JobDefinition<object> {
  return {
    name: 'image-thumbnail-sweep',
    schedule: '*/5 * * * *',
    retryLimit: 1,
    async handle() {
      for (const item of await itemsWithoutThumbnail(db, 500)) {
        if (item.kind === 'study') {
          await jobs.send(STUDY_PREVIEW_JOB, { itemId: item.id }, { singletonKey: item.id });
        } else {
          await jobs.send(THUMBNAIL_JOB, { imageId: item.id }, { singletonKey: item.id });
        }
      }
    },
  };
}
