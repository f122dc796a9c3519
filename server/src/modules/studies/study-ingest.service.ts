import { inParallel, STUDY_MESSAGES, type UploadStudyResponse } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError, InvalidInput, RuleViolation } from '../../lib/errors.js';
import type { Actor } from '../../lib/actor.js';
import { may, requireStorer } from '../access/index.js';
import { checkRecommendation } from '../archive-items/index.js';
import {
  claimDicomUploads,
  findDicomUploads,
  forgetUploadFiles,
  UPLOAD_NOT_FOUND,
  uploadIdOf,
} from '../uploads/index.js';
import { FILES_READ_AT_ONCE, readDicomUploads } from './study-files.js';
import { makeWorkDir, removeWorkDir } from './work-dirs.js';
import { groupByStudy, type UploadStudyBody } from './filing-target.js';
import { guardPatient } from './patient-guard.js';
import { fileOneStudy, storageBudget } from './study-filing.js';

/** The uploads named in the body, all the caller's, finished and unclaimed; else the contract's 400. */
async function findUploads(ctx: AppContext, user: Actor, urls: string[]) {
  const ids = urls.map(uploadIdOf);
  if (ids.some((id) => id === undefined)) {
    throw new InvalidInput('uploads', UPLOAD_NOT_FOUND);
  }
  const unique = [...new Set(ids as string[])];
  const found = await findDicomUploads(ctx, user.id, unique);
  if (found.length !== unique.length) {
    throw new InvalidInput('uploads', UPLOAD_NOT_FOUND);
  }
  return found;
}

/**
 * Files the DICOM files of `uploads` for a patient: one archive item per study, each written in
 * its own transaction (docs/api.md §12.1). An instance the archive already holds is not stored
 * again; a study filed before gains the new instances.
 */
export async function fileStudies(
  ctx: AppContext,
  user: Actor,
  body: UploadStudyBody,
  ip: string,
): Promise<UploadStudyResponse> {
  requireStorer(user);
  if (!(await may(ctx, user, 'item:store', body.patient))) {
    throw new AppError('NOT_FOUND');
  }
  const recommendationId = body.recommendation || null;
  await checkRecommendation(ctx, recommendationId);
  const toRead = await findUploads(ctx, user, body.uploads);
  const storage = await storageBudget(ctx, user);

  const workDir = await makeWorkDir(ctx.tusDir, 'study-');
  try {
    const { files, skipped, refusals } = await readDicomUploads(
      toRead,
      ctx.uploadFiles,
      workDir,
      (bytes) => ctx.decoder.readInstance(bytes),
      ctx.config.dicom.maxInstanceBytes,
      storage.bytes,
    );
    const groups = groupByStudy(files);
    if (groups.length === 0) {
      // What a ZIP refused was never read: "no DICOM" would hide why.
      throw new InvalidInput('uploads', refusals[0] ?? STUDY_MESSAGES.noDicom);
    }
    const { filed, storedSops } = await guardPatient(ctx, body, groups, user.id);

    const ids = toRead.map((upload) => upload.id);
    if (!(await claimDicomUploads(ctx, user.id, ids))) {
      // Another request filed some of them meanwhile; nothing stays half claimed.
      throw new InvalidInput('uploads', UPLOAD_NOT_FOUND);
    }
    // From here the files move into storage. Each study is filed on its own: one that fails has
    // its files reported as refused, and the other studies are filed all the same.
    const items: UploadStudyResponse['items'] = [];
    for (const group of groups) {
      const before = filed.get(group.studyInstanceUid) ?? null;
      try {
        const filedNow = await fileOneStudy(ctx, user, body, group, {
          recommendationId,
          ip,
          filed: before,
          storage,
          storedSops,
        });
        items.push(filedNow.item);
        skipped.push(
          ...filedNow.overQuota.map((file) => ({ name: file.name, reason: STUDY_MESSAGES.storageFull })),
        );
      } catch (err) {
        if (!(err instanceof RuleViolation)) {
          ctx.log.error({ err, study: group.studyInstanceUid }, 'a study of an upload could not be filed');
        }
        const reason = err instanceof RuleViolation ? err.message : STUDY_MESSAGES.processingFailed;
        skipped.push(...group.files.map((file) => ({ name: file.name, reason })));
      }
    }
    // A folder's bundles are dozens of large files: removed side by side.
    await inParallel(ids, FILES_READ_AT_ONCE, (id) => forgetUploadFiles(ctx, id));
    // What a refusal names of the instance is for STOW-RS; the page shows the file and the reason.
    return { success: true, items, skipped: skipped.map(({ name, reason }) => ({ name, reason })) };
  } finally {
    await removeWorkDir(workDir);
  }
}
