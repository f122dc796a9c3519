import type { Db } from '../../db/client.js';
import { deleteUpload, listUnclaimedBefore } from './uploads.repository.js';
import { UPLOAD_CLAIM_HOURS } from './upload-quota.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import type { UploadFiles } from './upload-files.js';

/**
 * Deletes uploads nobody claimed within 24 hours, with their bytes, on the disk or in the bucket
 * (docs/api.md §11.1).
 */
export function uploadCleanupJob(db: Db, files: UploadFiles): JobDefinition<object> {
  return {
    name: 'upload-cleanup',
    schedule: '17 * * * *',
    retryLimit: 2,
    async handle() {
      const before = new Date(Date.now() - UPLOAD_CLAIM_HOURS * 3600 * 1000);
      for (const upload of await listUnclaimedBefore(db, before)) {
        await files.remove(upload.id).catch(() => undefined);
        await deleteUpload(db, upload.id);
      }
      await files.deleteExpired();
    },
  };
}
