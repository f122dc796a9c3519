import type { AppContext } from '../context.js';
import type { Database } from '../db/client.js';
import type { MailTransport } from '../lib/mailer.js';
import type { DecodePool } from '../modules/dicom/index.js';
import type { Storage } from '../modules/storage/index.js';
import type { JobDefinition, JobSender } from './job-queue.js';
import { thumbnailJob } from '../modules/archive-items/index.js';
import {
  removedFilesJob,
  studyPreviewJob,
  thumbnailSweepJob,
  workDirCleanupJob,
} from '../modules/studies/index.js';
import { studyReportsJob } from '../modules/reports/index.js';
import { sendStudyJob } from '../modules/dicom-node/index.js';
import { uploadCleanupJob, type UploadFiles } from '../modules/uploads/index.js';
import { pictureSweepJob, profilePictureJob } from '../modules/users/index.js';
import { sendEmailJob } from './send-email.job.js';
import { databaseUpkeepJob } from './database-upkeep.job.js';

/**
 * Every background job, registered in one place. Each module keeps its own jobs (`*.job.ts`) beside
 * the repository they read; this folder holds the queue and the jobs of no module (email, and the
 * embedded database's upkeep, which a PostgreSQL server's autovacuum makes needless).
 */
export function allJobs(deps: {
  /** The services' context, for jobs that work through other modules' services. */
  ctx: AppContext;
  database: Database;
  storage: Storage;
  uploadFiles: UploadFiles;
  jobs: JobSender;
  /** The configured MAX_IMAGE_MEGAPIXELS, in pixels: sharp decodes nothing larger. */
  maxImagePixels: number;
  mailTransport: MailTransport;
  /** Draws study previews off the main thread, within the DICOM read bounds. */
  decoder: DecodePool;
}) {
  const db = deps.database.db;
  return [
    thumbnailJob(db, deps.storage, deps.maxImagePixels),
    studyPreviewJob(db, deps.storage, deps.decoder),
    studyReportsJob(deps.ctx),
    sendStudyJob(deps.ctx),
    removedFilesJob(deps.storage),
    profilePictureJob(db, deps.storage),
    thumbnailSweepJob(db, deps.jobs),
    pictureSweepJob(db, deps.jobs),
    uploadCleanupJob(db, deps.uploadFiles),
    workDirCleanupJob(deps.ctx.tusDir),
    sendEmailJob(deps.mailTransport),
    ...(deps.database.kind === 'pglite' ? [databaseUpkeepJob(deps.database, deps.ctx.log)] : []),
  ] as JobDefinition<object>[];
}
