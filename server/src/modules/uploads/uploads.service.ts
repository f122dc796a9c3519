import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { InvalidInput } from '../../lib/errors.js';
import { removePrivateMetadata } from './private-metadata.js';
import * as repo from './uploads.repository.js';
import { NOT_AN_IMAGE, UPLOAD_CLAIM_HOURS } from './tus-server.js';

export { remainingStorage, storageLeftAfter } from './upload-quota.js';

export const UPLOAD_NOT_FOUND = 'The upload was not found or is not finished.';

/** The upload id in `/api/uploads/<id>`, given as an absolute or relative URL. */
export function uploadIdOf(url: string): string | undefined {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://local').pathname;
  } catch {
    return undefined;
  }
  return /^\/api\/uploads\/([0-9a-f-]{36})\/?$/i.exec(pathname)?.[1];
}

export interface ClaimedUpload {
  id: string;
  filename: string;
  size: number;
  contentType: string;
  width: number;
  height: number;
}

/**
 * Claims a finished upload of the caller (docs/api.md §11.2). Refuses with the contract's 400s:
 * someone else's, unfinished, old or unknown uploads look the same; a non-image says so.
 */
export async function claimUpload(
  ctx: AppContext,
  db: Queryable,
  claim: { url: string; userId: string; purpose: 'image' | 'profile'; field: string },
): Promise<ClaimedUpload> {
  const id = uploadIdOf(claim.url);
  const notBefore = new Date(Date.now() - UPLOAD_CLAIM_HOURS * 3600 * 1000);
  const row = id
    ? await repo.claimUpload(db, { id, userId: claim.userId, purpose: claim.purpose, notBefore })
    : undefined;
  if (!row) {
    const existing = id ? await repo.findUpload(db, id) : undefined;
    const isRejectedImage =
      existing?.userId === claim.userId && existing.finishedAt !== null && existing.contentType === null;
    throw new InvalidInput(claim.field, isRejectedImage ? NOT_AN_IMAGE : UPLOAD_NOT_FOUND);
  }
  return {
    id: row.id,
    filename: row.filename,
    size: row.size,
    contentType: row.contentType!,
    width: row.width!,
    height: row.height!,
  };
}

/**
 * Moves a claimed upload's bytes into storage, without the metadata that could say where a photo
 * was taken; on failure the claim is undone so the user can try again. Returns the upload as
 * stored (a rewritten file may differ in size, and in dimensions once its orientation is applied).
 * `maxPixels` bounds the decoder: the limit the upload was already checked against.
 */
export async function moveIntoStorage(
  ctx: AppContext,
  upload: ClaimedUpload,
  key: string,
  maxPixels: number,
): Promise<ClaimedUpload> {
  try {
    // On this disk the upload's own file is rewritten and moved; from a bucket, a local copy is.
    const local = await ctx.uploadFiles.localCopyOf(upload.id);
    try {
      const rewritten = await removePrivateMetadata(local.path, upload.contentType, maxPixels);
      await ctx.storage.putFile(key, local.path, { move: true });
      return rewritten ? { ...upload, ...rewritten } : upload;
    } finally {
      await local.release();
    }
  } catch (err) {
    await repo.releaseUpload(ctx.db, upload.id);
    throw err;
  }
}

/** Removes what tus keeps of an upload once its bytes have moved into storage. */
export async function forgetUploadFiles(ctx: AppContext, id: string): Promise<void> {
  await ctx.uploadFiles.remove(id);
}

const DICOM_PURPOSES = ['dicom', 'dicom-zip', 'dicom-bundle'] as const;

function dicomClaim(userId: string, ids: string[]) {
  return {
    ids,
    userId,
    purposes: [...DICOM_PURPOSES],
    notBefore: new Date(Date.now() - UPLOAD_CLAIM_HOURS * 3600 * 1000),
  };
}

/** The caller's finished, unclaimed DICOM and ZIP uploads among `ids` (upload-study reads them before claiming). */
export async function findDicomUploads(ctx: AppContext, userId: string, ids: string[]) {
  const rows = await repo.findClaimableUploads(ctx.db, dicomClaim(userId, ids));
  return rows.map((row) => ({
    id: row.id,
    purpose: row.purpose as (typeof DICOM_PURPOSES)[number],
    filename: row.filename,
  }));
}

/** Claims all of them or none: false when another request claimed one first. */
export async function claimDicomUploads(ctx: AppContext, userId: string, ids: string[]): Promise<boolean> {
  const claimed = await repo.claimUploads(ctx.db, dicomClaim(userId, ids));
  if (claimed.length === ids.length) {
    return true;
  }
  await repo.releaseUploads(ctx.db, claimed);
  return false;
}
