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

/**
 * What the user may still store under their storage quota (STORAGE_QUOTA_GB), in bytes: the quota
 * less what they stored; 0 once it is used up. Filings check their files against it one by one.
 */
export async function remainingStorage(ctx: AppContext, userId: string): Promise<number> {
  return storageLeftAfter(ctx, await repo.storedBytesOf(ctx.db, userId));
}

/** What the storage quota leaves to a user who has stored `storedBytes`. */
export function storageLeftAfter(ctx: AppContext, storedBytes: number): number {
  return Math.max(0, ctx.config.uploads.storageQuotaBytes - storedBytes);
}

/**
 * Whether an upload of `size` bytes could not be stored: what the user stored, their unfinished
 * uploads and this one together over the storage quota.
 */
export async function isOverStorageQuota(ctx: AppContext, userId: string, size: number): Promise<boolean> {
  const [remaining, figures] = await Promise.all([
    remainingStorage(ctx, userId),
    repo.uploadFiguresOf(ctx.db, userId, {
      notBefore: new Date(Date.now() - UPLOAD_CLAIM_HOURS * 3600 * 1000),
      createdSince: new Date(),
    }),
  ]);
  return figures.pendingBytes + size > remaining;
}
