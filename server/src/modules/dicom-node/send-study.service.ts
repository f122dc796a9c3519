import crypto from 'node:crypto';
import type { SendStudyResponse } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/actor.js';
import { AppError, InvalidInput } from '../../lib/errors.js';
import { requirePermitted } from '../access/index.js';
import { auditReads } from '../audit/index.js';
import { notify } from '../notifications/index.js';
import { storedInstancesOf } from '../studies/index.js';
import * as repo from './dicom-nodes.repository.js';
import { sendFiles } from './study-sender.js';

export const SEND_STUDY_JOB = 'dicom-send-study';

export interface SendStudyJobData {
  job: string;
  itemId: string;
  physicianId: string;
  aeTitle: string;
}

export const SEND_MESSAGES = {
  cannotReceive: 'This DICOM node has no host and port to send to. Ask the operator to add them.',
} as const;

/**
 * POST /api/image/:uid/send: a physician who may read the study sends it to one of their own nodes
 * that has a host and a port. The sending runs as a background job; its outcome arrives as a
 * notification.
 */
export async function queueStudySend(
  ctx: AppContext,
  user: Actor,
  itemId: string,
  aeTitle: string,
  ip: string,
): Promise<SendStudyResponse> {
  if (user.role !== 'PHYSICIAN') {
    throw new AppError('FORBIDDEN');
  }
  await requirePermitted(ctx, user, 'item:read', [itemId]);
  const [first] = await storedInstancesOf(ctx, itemId);
  if (!first) {
    // Not a study (a raster image has nothing to send over DICOM).
    throw new AppError('NOT_FOUND');
  }
  const node = await repo.findNodeOf(ctx.db, user.id, aeTitle);
  if (!node) {
    throw new AppError('NOT_FOUND');
  }
  if (node.host === null || node.port === null) {
    throw new InvalidInput('ae_title', SEND_MESSAGES.cannotReceive);
  }
  const job = crypto.randomUUID();
  const data: SendStudyJobData = { job, itemId, physicianId: user.id, aeTitle };
  await ctx.jobs.send(SEND_STUDY_JOB, data);
  // The study's files leave the archive at the caller's request: audited as a download of them.
  await auditReads(ctx, [
    {
      actorId: user.id,
      patientId: first.patientId,
      action: 'download',
      recordType: 'file',
      recordId: `studies/${itemId}`,
      ip,
    },
  ]);
  return { job };
}

/** The job: sends every stored instance of the study, then tells the physician how it went. */
export async function sendStudy(ctx: AppContext, data: SendStudyJobData): Promise<void> {
  const node = await repo.findNodeOf(ctx.db, data.physicianId, data.aeTitle);
  const instances = await storedInstancesOf(ctx, data.itemId);
  let message: string;
  if (!node || node.host === null || node.port === null) {
    message = `Study not sent to ${data.aeTitle}: the DICOM node is no longer registered with a host and port.`;
  } else if (instances.length === 0) {
    message = `Study not sent to ${data.aeTitle}: the study is no longer in the archive.`;
  } else {
    const outcome = await sendFiles(
      ctx,
      { aeTitle: node.aeTitle, host: node.host, port: node.port },
      instances.map((instance) => instance.storageKey),
    );
    if (outcome.error && outcome.stored === 0) {
      ctx.log.warn({ job: data.job, err: outcome.error }, 'study not sent to a DICOM node');
      message = `Study not sent to ${data.aeTitle}: ${outcome.error}.`;
    } else {
      message = `Study sent to ${data.aeTitle}: ${outcome.stored} of ${outcome.total} instances.`;
    }
  }
  await ctx.db.transaction((tx) => notify(tx, { userId: data.physicianId, message, to: null }));
}
