import type { JobDefinition } from '../../jobs/job-queue.js';
import { removeStaleWorkDirs } from './work-dirs.js';

/** A filing lasts minutes at most: a working folder this old belongs to no running request. */
const STALE_AFTER_MS = 24 * 3600 * 1000;

/** Removes the working folders of DICOM filings a crash interrupted (beside the tus folder). */
export function workDirCleanupJob(tusDir: string): JobDefinition<object> {
  return {
    name: 'work-dir-cleanup',
    schedule: '17 * * * *',
    retryLimit: 2,
    async handle() {
      await removeStaleWorkDirs(tusDir, STALE_AFTER_MS);
    },
  };
}
