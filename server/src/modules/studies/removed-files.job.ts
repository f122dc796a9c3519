import type { JobDefinition } from '../../jobs/job-queue.js';
import type { Storage } from '../storage/index.js';

export const REMOVED_FILES_JOB = 'removed-instance-files';

/**
 * How long the files of instances taken out of a study stay after their rows went: a WADO-RS
 * answer read the rows before and opens each file as it gets to it, so the files outlive the
 * slowest answer that may still name them.
 */
export const REMOVED_FILES_GRACE_SECONDS = 600;

export interface RemovedFilesJobData {
  keys: string[];
}

/** Deletes the stored files of instances removed from a study, once no answer can still be sending them. */
export function removedFilesJob(storage: Storage): JobDefinition<RemovedFilesJobData> {
  return {
    name: REMOVED_FILES_JOB,
    retryLimit: 5,
    async handle({ keys }) {
      for (const key of keys) {
        await storage.delete(key);
      }
    },
  };
}
