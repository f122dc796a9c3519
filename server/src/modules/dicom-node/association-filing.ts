import { STUDY_MESSAGES } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/actor.js';
import { RuleViolation } from '../../lib/errors.js';
import {
  fileOneStudy,
  groupByStudy,
  receivingTarget,
  storageBudget,
  type DicomFile,
} from '../studies/index.js';

/** What filing an association's instances gave: how many were filed, and how many failed at filing. */
export interface AssociationFiled {
  filed: number;
  failed: number;
}

/**
 * Files the instances an association brought, once it is released: grouped by study, each study in
 * the physician's Incoming list (or into their patient's study of the same UID, as STOW-RS without
 * a patient does), with the same checks, storage quota and audit. A study that cannot be filed
 * fails alone.
 */
export async function fileAssociation(
  ctx: AppContext,
  physician: Actor,
  files: DicomFile[],
  from: { source: string; ip: string },
): Promise<AssociationFiled> {
  const outcome: AssociationFiled = { filed: 0, failed: 0 };
  if (files.length === 0) {
    return outcome;
  }
  let storage;
  try {
    storage = await storageBudget(ctx, physician);
  } catch {
    // The quota filled since the instances were taken (another upload): nothing more is stored.
    return { filed: 0, failed: files.length };
  }
  for (const group of groupByStudy(files)) {
    try {
      const { target, filed } = await receivingTarget(ctx, physician, group, from.source);
      const { overQuota } = await fileOneStudy(ctx, physician, target, group, {
        recommendationId: null,
        ip: from.ip,
        isFromClient: true,
        filed,
        storage,
      });
      outcome.filed += group.files.length - overQuota.length;
      outcome.failed += overQuota.length;
    } catch (err) {
      outcome.failed += group.files.length;
      if (!(err instanceof RuleViolation && err.message === STUDY_MESSAGES.storageFull)) {
        ctx.log.error({ err, study: group.studyInstanceUid }, 'the DICOM node could not file a study');
      }
    }
  }
  return outcome;
}
