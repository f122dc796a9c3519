import type { AppContext } from '../../context.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { STUDY_REPORTS_JOB, writeStudyReports, type StudyReportsJobData } from './reports.service.js';

/**
 * Writes a radiologist's SR and KO documents into a study after their note was stored. A failure
 * (a document that cannot be built or filed) is logged and retried; the note stays saved.
 */
export function studyReportsJob(ctx: AppContext): JobDefinition<StudyReportsJobData> {
  return {
    name: STUDY_REPORTS_JOB,
    retryLimit: 5,
    policy: 'short',
    async handle(data) {
      try {
        await writeStudyReports(ctx, data);
      } catch (err) {
        ctx.log.error(
          { err, itemId: data.itemId, authorId: data.authorId },
          'study reports not written; will retry',
        );
        throw err;
      }
    },
  };
}
