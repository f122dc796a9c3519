import type { Db } from '../../db/client.js';
import type { JobDefinition, JobSender } from '../../jobs/job-queue.js';
import { PROFILE_PICTURE_JOB } from './profile-picture.job.js';
import { listPicturesWithoutCrop } from './profile.repository.js';

/** Queues the crop of any profile picture that still lacks one (a lost queue entry, a crash). */
export function pictureSweepJob(db: Db, jobs: Pick<JobSender, 'send'>): JobDefinition<object> {
  return {
    name: 'profile-picture-sweep',
    schedule: '*/5 * * * *',
    retryLimit: 1,
    async handle() {
      for (const picture of await listPicturesWithoutCrop(db, 500)) {
        await jobs.send(PROFILE_PICTURE_JOB, picture, { singletonKey: picture.pictureId });
      }
    },
  };
}
