import crypto from 'node:crypto';
import type { z } from 'zod';
import {
  ERROR_BODIES,
  inParallel,
  namesAnotherPatient,
  peopleInFiles,
  STUDY_MESSAGES,
  type SkippedFile,
  type UploadStudyResponse,
  type uploadStudyBodySchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError, InvalidInput, Refusal, RuleViolation } from '../../lib/errors.js';
import type { Actor, ActorFacts } from '../../lib/actor.js';
import { STUDY_PREVIEW_JOB, studyPreviewThrottle } from './study-preview.job.js';
import { canAddToStudy, canUploadFor, requireStorer } from '../access/index.js';
import { auditChange } from '../audit/index.js';
import { checkRecommendation, recordNewItem, type Uploader } from '../images/index.js';
import {
  claimDicomUploads,
  findDicomUploads,
  forgetUploadFiles,
  remainingStorage,
  UPLOAD_NOT_FOUND,
  uploadIdOf,
} from '../uploads/index.js';
import type { DicomFile } from './dicom-file-read.js';
import { FILES_READ_AT_ONCE, readDicomUploads } from './study-files.js';
import { makeWorkDir, removeWorkDir } from './work-dirs.js';
import * as repo from './studies.repository.js';

type UploadStudyBody = z.output<typeof uploadStudyBodySchema>;

/**
 * Where and how files are filed: upload-study's body, or STOW-RS's query. Without a patient
 * (`patient: null`), a physician's studies wait in their Incoming list; `receivedFrom` says who sent them.
 */
export type FilingTarget = Pick<UploadStudyBody, 'notes' | 'confirm_patient_mismatch'> & {
  patient: string | null;
  receivedFrom?: string;
};

/** Whether a study already in the archive is where the target files it: the same patient, or the same Incoming list. */
function isFiledAsTarget(
  filed: { patientId: string | null; receiverId: string | null },
  target: FilingTarget,
  user: Uploader,
): boolean {
  return target.patient
    ? filed.patientId === target.patient
    : filed.patientId === null && filed.receiverId === user.id;
}

/** A study already in the archive, as the filing looks it up. */
export type FiledStudy = Awaited<ReturnType<typeof repo.findStudiesIn>>[number];

/** Where the target's UIDs are unique: its patient, or the uploader's Incoming list. */
function namespaceOf(target: FilingTarget, user: Uploader): string {
  return target.patient ?? user.id;
}

/**
 * Where a physician's files sent without a patient go: a study of the same Study Instance UID filed
 * under one of their patients gains them when every file names that patient (the wrong-patient
 * guard, which nobody can confirm here); any other study waits in their Incoming list.
 */
export async function receivingTarget(
  ctx: AppContext,
  user: Actor,
  group: StudyFiles,
  receivedFrom: string,
): Promise<{ target: FilingTarget; filed: FiledStudy | null }> {
  const matching: FiledStudy[] = [];
  for (const filed of await repo.findPatientStudiesByUid(ctx.db, group.studyInstanceUid)) {
    if (!(await canUploadFor(ctx, user, filed.patientId!))) {
      continue;
    }
    const patient = await repo.findPatientDetails(ctx.db, filed.patientId!);
    if (patient && !group.files.some((file) => namesAnotherPatient(personOf(file), patient))) {
      matching.push(filed);
    }
  }
  // Two patients of theirs holding the study is no basis to pick one: the receiver decides.
  if (matching.length === 1) {
    const filed = matching[0]!;
    return { target: { patient: filed.patientId, notes: '', confirm_patient_mismatch: true }, filed };
  }
  const [waiting] = await repo.findStudiesIn(ctx.db, user.id, [group.studyInstanceUid]);
  return {
    target: { patient: null, notes: '', confirm_patient_mismatch: true, receivedFrom },
    filed: waiting ?? null,
  };
}

/** The patient a file names, as the wrong-patient guard reads it. */
function personOf(file: DicomFile) {
  return { name: file.instance.patientName, birthDate: file.instance.patientBirthDate };
}

/** The files of one study among the uploads. */
export interface StudyFiles {
  studyInstanceUid: string;
  files: DicomFile[];
}

export function groupByStudy(files: DicomFile[]): StudyFiles[] {
  const groups = new Map<string, DicomFile[]>();
  for (const file of files) {
    const group = groups.get(file.instance.studyInstanceUid) ?? [];
    group.push(file);
    groups.set(file.instance.studyInstanceUid, group);
  }
  return [...groups].map(([studyInstanceUid, group]) => ({ studyInstanceUid, files: group }));
}

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
 * Refuses to file studies under the wrong patient: files naming someone else, unless the uploader
 * confirmed (docs/api.md §12.2, every file checked). Returns the studies among them the patient
 * holds already, by Study Instance UID, for the filing to start from; studies of the same UIDs
 * filed for anyone else are not looked at.
 */
export async function guardPatient(
  ctx: AppContext,
  body: FilingTarget & { patient: string },
  groups: StudyFiles[],
) {
  const filed = await repo.findStudiesIn(
    ctx.db,
    body.patient,
    groups.map((group) => group.studyInstanceUid),
  );
  await guardNames(
    ctx,
    body,
    groups.flatMap((group) => group.files.map(personOf)),
  );
  return new Map(filed.map((study) => [study.studyInstanceUid, study]));
}

/**
 * The wrong-patient guard on names and birth dates as the files give them, every file checked: a
 * 409 listing every distinct person the files name, unless the uploader confirmed.
 */
export async function guardNames(
  ctx: AppContext,
  body: { patient: string; confirm_patient_mismatch: boolean },
  namesInFiles: { name: string; birthDate: string | null }[],
) {
  if (body.confirm_patient_mismatch) {
    return;
  }
  const patient = await repo.findPatientDetails(ctx.db, body.patient);
  if (patient && namesInFiles.some((found) => namesAnotherPatient(found, patient))) {
    // As the files give the names ("Family^Given"); the page writes them as people do.
    throw new RuleViolation(STUDY_MESSAGES.patientMismatch, { found: peopleInFiles(namesInFiles) });
  }
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
  if (!(await canUploadFor(ctx, user, body.patient))) {
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
      ctx.tusDir,
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
    const filed = await guardPatient(ctx, body, groups);

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

/** Bytes an uploader may still store in this request; each file filed spends its size. */
export interface StorageBudget {
  bytes: number;
}

/** One study filed: what the answer says of it, and its files left out for the storage quota. */
export interface FiledStudyFiles {
  item: UploadStudyResponse['items'][number];
  overQuota: DicomFile[];
}

/**
 * The storage the user may still fill, for a filing to spend; 413 "Your storage is full." when none
 * is left, before anything is read.
 */
export async function storageBudget(ctx: AppContext, user: Actor): Promise<StorageBudget> {
  const bytes = await remainingStorage(ctx, user.id);
  if (bytes <= 0) {
    throw new Refusal(413, ERROR_BODIES.storageFull.error);
  }
  return { bytes };
}

/**
 * The item id of a study filed for the first time: derived from its namespace and Study Instance
 * UID with the archive's secret (shared by every instance of the server), so requests filing the
 * same new study at the same moment agree on it, yet nobody can compute it from the files.
 */
function newStudyItemId(secret: string, namespace: string, studyInstanceUid: string): string {
  const bytes = crypto
    .createHmac('sha256', secret)
    .update(`study-item:${namespace}:${studyInstanceUid}`)
    .digest();
  bytes[6] = (bytes[6]! & 0x0f) | 0x80; // version 8: a UUID of custom make
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // the RFC 9562 variant
  const hex = bytes.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Files one study's files under the target's patient in one transaction: a new archive item, or
 * new instances of the item the study was filed as before. Requests filing the same study wait
 * for each other's transaction, so parts of a study sent at once become one study.
 */
export async function fileOneStudy(
  ctx: AppContext,
  user: Uploader & ActorFacts,
  body: FilingTarget,
  group: StudyFiles,
  context: {
    recommendationId: string | null;
    ip: string;
    /** Files sent by a DICOMweb client, which may send more of the study right after. */
    isFromClient?: boolean;
    /** The study as the caller found it in the archive (null: not filed yet); looked up when not given. */
    filed?: FiledStudy | null;
    /** What the uploader may still store (their storage quota), spent by the files stored here. */
    storage?: StorageBudget;
  },
): Promise<FiledStudyFiles> {
  const namespace = namespaceOf(body, user);
  const filed =
    context.filed !== undefined
      ? context.filed
      : (await repo.findStudiesIn(ctx.db, namespace, [group.studyInstanceUid]))[0];
  if (filed && !isFiledAsTarget(filed, body, user)) {
    throw new Error('A study was looked up outside the namespace it is filed in.');
  }
  // Adding to a study is for those who may read it: a radiologist paid for one study of a patient
  // files new studies for them, never series into their other studies.
  if (filed?.patientId && !(await canAddToStudy(ctx, user, filed.itemId))) {
    throw new RuleViolation(STUDY_MESSAGES.cannotAddToStudy);
  }
  const itemId = filed?.itemId ?? newStudyItemId(ctx.fileUrlSecret, namespace, group.studyInstanceUid);

  // The same SOP Instance UID twice, in these files or already in the namespace, is stored once.
  const stored = await repo.findStoredSops(
    ctx.db,
    namespace,
    group.files.map((file) => file.instance.sopInstanceUid),
  );
  const duplicates: SkippedFile[] = [];
  const fresh: DicomFile[] = [];
  const overQuota: DicomFile[] = [];
  for (const file of group.files) {
    if (stored.has(file.instance.sopInstanceUid)) {
      duplicates.push({ name: file.name, reason: STUDY_MESSAGES.duplicate });
    } else if (context.storage && file.size > context.storage.bytes) {
      overQuota.push(file);
    } else {
      stored.add(file.instance.sopInstanceUid);
      if (context.storage) {
        context.storage.bytes -= file.size;
      }
      fresh.push(file);
    }
  }
  if (!filed && fresh.length === 0) {
    // Nothing of a new study fits: no empty study is made.
    throw new RuleViolation(STUDY_MESSAGES.storageFull);
  }

  // The bytes go into storage first, as received; no transaction stays open while they move. Each
  // request's files have keys of their own, so no request's clean-up removes another's file.
  const attempt = crypto.randomBytes(4).toString('hex');
  const keyOf = (file: DicomFile) => `studies/${itemId}/${file.instance.sopInstanceUid}.${attempt}.dcm`;
  let filedNow: DicomFile[] = [];
  try {
    // Every move ends before a failed one is reported, so the clean-up below finds them all.
    let failedMove: Error | undefined;
    await inParallel(fresh, FILES_READ_AT_ONCE, (file) =>
      ctx.storage.putFile(keyOf(file), file.path, { move: true }).catch((err: unknown) => {
        failedMove ??= err instanceof Error ? err : new Error(String(err));
      }),
    );
    if (failedMove) {
      throw failedMove;
    }
    await ctx.db.transaction(async (tx) => {
      await repo.lockStudyUid(tx, namespace, group.studyInstanceUid);
      // Another request may have filed the study since the first look, always as the same item
      // (its id follows from the namespace and the UID); an item that went meanwhile is not revived.
      const [now] = await repo.findStudiesIn(tx, namespace, [group.studyInstanceUid]);
      if ((now && now.itemId !== itemId) || (!now && filed)) {
        throw new RuleViolation(STUDY_MESSAGES.studyChanged);
      }
      const first = group.files[0]!.instance;
      if (!now) {
        await recordNewItem(
          tx,
          user,
          {
            id: itemId,
            kind: 'study',
            patientId: body.patient,
            receiverId: body.patient ? null : user.id,
            storageKey: `previews/${itemId}.png`,
            contentType: 'image/png',
            filename: first.studyDescription || group.files[0]!.name,
            size: 0,
            width: 0,
            height: 0,
          },
          { notes: body.notes, recommendationId: context.recommendationId, ip: context.ip },
        );
        await repo.insertStudy(tx, {
          itemId,
          namespaceId: namespace,
          studyInstanceUid: group.studyInstanceUid,
          studyDate: first.studyDate,
          studyTime: first.studyTime,
          studyDescription: first.studyDescription,
          accessionNumber: first.accessionNumber,
          studyId: first.studyId,
          referringPhysicianName: first.referringPhysicianName,
          patientNameInFile: first.patientName,
          patientIdInFile: first.patientId,
          patientBirthDateInFile: first.patientBirthDate,
          patientSexInFile: first.patientSex,
          receivedFrom: body.receivedFrom ?? '',
        });
      } else {
        await auditChange(tx, {
          actorId: user.id,
          patientId: body.patient,
          action: 'update',
          recordType: 'image',
          recordId: itemId,
          ip: context.ip,
        });
      }
      const seriesIds = await ensureSeries(tx, itemId, fresh);
      const inserted = await repo.insertInstances(
        tx,
        itemId,
        fresh.map((file) => ({
          seriesId: seriesIds.get(file.instance.seriesInstanceUid)!,
          sopInstanceUid: file.instance.sopInstanceUid,
          sopClassUid: file.instance.sopClassUid,
          transferSyntaxUid: file.instance.transferSyntaxUid,
          instanceNumber: file.instance.instanceNumber,
          numberOfFrames: file.instance.numberOfFrames,
          rows: file.instance.rows,
          columns: file.instance.columns,
          isImage: file.instance.isImage,
          storageKey: keyOf(file),
          filename: file.name.slice(0, 255),
          size: file.size,
          metadata: file.instance.metadata,
          pixelDataOffset: file.instance.nativeFrames?.offset ?? null,
          frameBytes: file.instance.nativeFrames?.frameBytes ?? null,
          frameOffsets: file.instance.frameOffsets,
        })),
      );
      filedNow = fresh.filter((file) => inserted.has(file.instance.sopInstanceUid));
    });
  } catch (err) {
    filedNow = [];
    throw err;
  } finally {
    // An instance another request stored meanwhile keeps that request's file.
    for (const file of fresh.filter((candidate) => !filedNow.includes(candidate))) {
      await ctx.storage.delete(keyOf(file));
    }
  }
  // After the commit; the thumbnail sweep catches a study whose job was never queued.
  await ctx.jobs.sendAfterCommit(
    STUDY_PREVIEW_JOB,
    { itemId },
    studyPreviewThrottle(itemId, context.isFromClient),
  );
  return {
    item: {
      uid: itemId,
      study_instance_uid: group.studyInstanceUid,
      instances: filedNow.length,
      skipped: duplicates,
    },
    overQuota,
  };
}

/** The series rows of these files in the study, made where missing. */
async function ensureSeries(
  tx: Parameters<typeof repo.insertSeries>[0],
  itemId: string,
  files: DicomFile[],
): Promise<Map<string, string>> {
  const bySeries = new Map<string, DicomFile['instance']>();
  for (const file of files) {
    bySeries.set(file.instance.seriesInstanceUid, file.instance);
  }
  const ids = new Map<string, string>();
  if (bySeries.size === 0) {
    return ids;
  }
  for (const row of await repo.findSeriesOfStudy(tx, itemId, [...bySeries.keys()])) {
    ids.set(row.seriesInstanceUid, row.id);
  }
  const missing = [...bySeries.values()].filter((instance) => !ids.has(instance.seriesInstanceUid));
  if (missing.length > 0) {
    const rows = await repo.insertSeries(
      tx,
      missing.map((instance) => ({
        itemId,
        seriesInstanceUid: instance.seriesInstanceUid,
        modality: instance.modality,
        seriesNumber: instance.seriesNumber,
        seriesDescription: instance.seriesDescription,
        bodyPartExamined: instance.bodyPartExamined,
      })),
    );
    rows.forEach((row) => ids.set(row.seriesInstanceUid, row.id));
  }
  return ids;
}
