import type { AppContext } from '../../context.js';
import * as repo from './studies.repository.js';

/*
 * The Structured Reports filed in a study, as far as reading their measurements needs them: the
 * stored content tree (DICOM JSON, within DICOM_MAX_METADATA_BYTES like every instance's
 * metadata), not the files.
 */

export type StoredStructuredReport = Awaited<ReturnType<typeof repo.findStructuredReports>>[number];

/**
 * The study `itemId`'s patient (null while it waits in an Incoming list) and its Structured
 * Reports (Enhanced, Comprehensive, Comprehensive 3D, Extensible) in series order, leaving out the
 * series `exceptSeries`: at most `limit`, and no more than `maxBytes` of stored metadata together
 * (the database reads each whole); undefined when the item is no study. No access decision is
 * made here.
 */
export async function structuredReportsOf(
  ctx: AppContext,
  itemId: string,
  options: { exceptSeries: string[]; limit: number; maxBytes: number },
): Promise<{ patientId: string | null; reports: StoredStructuredReport[] } | undefined> {
  const study = await repo.findFiledStudy(ctx.db, itemId);
  if (!study) {
    return undefined;
  }
  return {
    patientId: study.patientId,
    reports: await repo.findStructuredReports(ctx.db, itemId, options.exceptSeries, options),
  };
}
