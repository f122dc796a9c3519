import type { AppContext } from '../../context.js';
import * as repo from './uploads.repository.js';

/** How long an unfinished upload can still be resumed (the tus store's expiration). */
export const UPLOAD_CLAIM_HOURS = 24;

/**
 * Whether one more upload of `size` bytes would take the user over a quota (config `uploads`):
 * unfinished uploads, their declared bytes, or creations in the last minute. Two requests racing
 * may both pass; the quota bounds abuse, not exact counts.
 */
export async function isOverUploadQuota(ctx: AppContext, userId: string, size: number): Promise<boolean> {
  const limits = ctx.config.uploads;
  const now = Date.now();
  const figures = await repo.uploadFiguresOf(ctx.db, userId, {
    notBefore: new Date(now - UPLOAD_CLAIM_HOURS * 3600 * 1000),
    createdSince: new Date(now - 60_000),
  });
  return (
    figures.pending + 1 > limits.maxPending ||
    figures.pendingBytes + size > limits.maxPendingBytes ||
    figures.createdRecently + 1 > limits.createPerMinute
  );
}
