import type { FileStore } from '@tus/file-store';
import type { Db } from '../db/client.js';
import type { MailTransport } from '../lib/mailer.js';
import type { DecodePool } from '../modules/dicom/index.js';
import type { Storage } from '../modules/storage/index.js';
import type { JobDefinition, JobSender } from './job-queue.js';
import { profilePictureJob } from './profile-picture.job.js';
import { sendEmailJob } from './send-email.job.js';
import { studyPreviewJob } from './study-preview.job.js';
import { thumbnailSweepJob } from './thumbnail-sweep.job.js';
import { thumbnailJob } from './thumbnail.job.js';
import { uploadCleanupJob } from './upload-cleanup.job.js';

/** Every background job, registered in one place. */
export function allJobs(deps: {
  db: Db;
  storage: Storage;
  tusStore: FileStore;
  jobs: JobSender;
  /** The configured MAX_IMAGE_MEGAPIXELS, in pixels: sharp decodes nothing larger. */
  maxImagePixels: number;
  mailTransport: MailTransport;
  /** Draws study previews off the main thread, within the DICOM read bounds. */
  decoder: DecodePool;
}) {
  return [
    thumbnailJob(deps.db, deps.storage, deps.maxImagePixels),
    studyPreviewJob(deps.db, deps.storage, deps.decoder),
    profilePictureJob(deps.db, deps.storage),
    thumbnailSweepJob(deps.db, deps.jobs),
    uploadCleanupJob(deps.db, deps.tusStore),
    sendEmailJob(deps.mailTransport),
  ] as JobDefinition<object>[];
}
