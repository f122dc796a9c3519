import type { FileStore } from '@tus/file-store';
import type { Db } from '../../db/client.js';
import { deleteUpload, listUnclaimedBefore } from './uploads.repository.js';
import { UPLOAD_CLAIM_HOURS } from './upload-quota.js';
import type { JobDefinition } from '../../jobs/job-queue.js';

/**
 * Deletes uploads nobody claimed within 24 hours, with their bytes (docs/api.md §11.1).
 */
export function uploadCleanupJob(db: Db, store: FileStore): JobDefinition<object> {
  return {
    name: 'upload-cleanup',
    schedule: '17 * * * *',
    retryLimit: 2,
    async handle() {
      const before = new Date(Date.now() - UPLOAD_CLAIM_HOURS * 3600 * 1000);
      for (const upload of await listUnclaimedBefore(db, before)) {
        await store.remove(upload.id).catch(() => undefined);
        await deleteUpload(db, upload.id);
      }
      await store.deleteExpired();
    },
  };
}
