import type { AppContext } from '../../context.js';
import type { JobDefinition } from '../../jobs/job-queue.js';
import { SEND_STUDY_JOB, sendStudy, type SendStudyJobData } from './send-study.service.js';

/**
 * Sends a study to a physician's DICOM node (POST /api/image/:uid/send). Not retried: the outcome,
 * success or failure, is told to the physician, who may send again.
 */
export function sendStudyJob(ctx: AppContext): JobDefinition<SendStudyJobData> {
  return {
    name: SEND_STUDY_JOB,
    retryLimit: 0,
    async handle(data) {
      await sendStudy(ctx, data);
    },
  };
}
