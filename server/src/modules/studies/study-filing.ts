import crypto from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import {
  ERROR_BODIES,
  inParallel,
  STUDY_MESSAGES,
  type SkippedFile,
  type UploadStudyResponse,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Queryable } from '../../db/client.js';
import { Refusal, RuleViolation } from '../../lib/errors.js';
import type { Actor, ActorFacts } from '../../lib/actor.js';
import { STUDY_PREVIEW_JOB, studyPreviewThrottle } from './study-preview.job.js';
import { mayExtendStudy } from '../access/index.js';
import { auditRowOf, type AuditEntry } from '../audit/index.js';
import { recordNewItem, type Uploader } from '../archive-items/index.js';
import { remainingStorage, storageLeftAfter } from '../uploads/index.js';
import type { DicomFile } from './dicom-file-read.js';
import { FILES_READ_AT_ONCE } from './study-files.js';
import * as repo from './studies.repository.js';
import { forgetStudy, rememberStudy } from './known-studies.js';
import {
  isFiledAsTarget,
  namespaceOf,
  type FiledStudy,
  type FilingTarget,
  type StudyFiles,
} from './filing-target.js';

/*
 * Filing one study's files: the bytes into storage first, then one transaction for the rows, so a
 * study is never half filed; the storage quota is spent as files are kept.
 */

/**
 * A filing into a known study (`expected`) found what it was sent with stale: nothing was filed and
 * every file is back where it was read from, for the caller to file the long way.
 */
export class StaleFiling extends Error {
  constructor() {
    super('What the filing was sent with has changed.');
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
  /** Files moved into storage (and kept, or removed there again): none is left where it was. */
  moved: DicomFile[];
}

/**
 * The storage the user may still fill, for a filing to spend; 413 "Your storage is full." when none
 * is left, before anything is read.
 */
export async function storageBudget(ctx: AppContext, user: Actor): Promise<StorageBudget> {
  return budgetOf(await remainingStorage(ctx, user.id));
}

/** The budget of a user who has stored `storedBytes` (read with other figures); 413 when none is left. */
export function storageBudgetAfter(ctx: AppContext, storedBytes: number): StorageBudget {
  return budgetOf(storageLeftAfter(ctx, storedBytes));
}

function budgetOf(bytes: number): StorageBudget {
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

/** How a study is filed: for what, from where, and what the caller found before. */
export interface FilingContext {
  recommendationId: string | null;
  ip: string;
  /** Files sent by a DICOMweb client, which may send more of the study right after. */
  isFromClient?: boolean;
  /** The study as the caller found it in the archive (null: not filed yet); looked up when not given. */
  filed?: FiledStudy | null;
  /** What the uploader may still store (their storage quota), spent by the files stored here. */
  storage?: StorageBudget;
  /**
   * The SOP Instance UIDs of the files that the namespace held as the caller found it
   * (guardPatient), shared by the studies of one request: each adds those it files. Looked up
   * when not given.
   */
  storedSops?: Set<string>;
  /**
   * Filing into a study known from an earlier filing (known-studies.ts) without having read the
   * patient, their SOP Instance UIDs or the uploader's quota first: the statement checks them, with
   * the patient as the guard was run against (null: the uploader confirmed). Only with `filed`, an
   * empty `storedSops`, no `storage`, and at most one statement of instances.
   */
  expected?: { patient: repo.PatientDetails | null };
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
  context: FilingContext,
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
  if (
    filed?.patientId &&
    !(await mayExtendStudy(ctx, user, { itemId: filed.itemId, patientId: filed.patientId }))
  ) {
    if (context.expected) {
      // No refusal rests on what was remembered (the study may have gone): read afresh.
      forgetStudy(ctx.db, namespace, group.studyInstanceUid);
      throw new StaleFiling();
    }
    throw new RuleViolation(STUDY_MESSAGES.cannotAddToStudy);
  }
  const itemId = filed?.itemId ?? newStudyItemId(ctx.fileUrlSecret, namespace, group.studyInstanceUid);

  // The same SOP Instance UID twice, in these files or already in the namespace, is stored once.
  const stored = context.storedSops
    ? new Set(context.storedSops)
    : await repo.findStoredSops(
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
  const rowOf = (file: DicomFile): repo.NewInstance => ({
    seriesInstanceUid: file.instance.seriesInstanceUid,
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
  });
  let filedNow: DicomFile[] = [];
  let isStale = false;
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
    // Instances go in batches of a statement each, and at least one: adding to a study records
    // its change (the audit row) even when every file was there already.
    const batches: DicomFile[][] = [];
    for (let start = 0; start < fresh.length || start === 0; start += repo.INSTANCES_PER_STATEMENT) {
      batches.push(fresh.slice(start, start + repo.INSTANCES_PER_STATEMENT));
    }
    const study = { namespaceId: namespace, studyInstanceUid: group.studyInstanceUid, itemId };
    const update: AuditEntry = {
      actorId: user.id,
      patientId: body.patient,
      action: 'update',
      recordType: 'image',
      recordId: itemId,
      ip: context.ip,
    };
    const expected = context.expected && {
      ...context.expected,
      uploaderId: user.id,
      quotaBytes: ctx.config.uploads.storageQuotaBytes,
    };
    const fileBatches = async (db: Queryable, isUpdate: boolean) => {
      const inserted = new Set<string>();
      for (const [index, batch] of batches.entries()) {
        const audit = isUpdate && index === 0 ? auditRowOf(update) : undefined;
        const stored = await repo.fileInstances(
          db,
          study,
          seriesOf(batch),
          batch.map(rowOf),
          audit,
          expected,
        );
        stored.forEach((sop) => inserted.add(sop));
      }
      return inserted;
    };
    if (expected && !(filed && batches.length === 1)) {
      throw new Error('Only a study found filed is filed in one checked statement.');
    }
    let inserted: Set<string>;
    try {
      if (filed && batches.length === 1) {
        // Into a study found filed, in one statement: the function takes the study's lock and
        // checks that it is still that item (repo.fileInstances).
        inserted = await fileBatches(ctx.db, true);
      } else {
        inserted = await ctx.db.transaction(async (tx) => {
          await repo.lockStudyUid(tx, namespace, group.studyInstanceUid);
          // Another request may have filed the study since the first look, always as the same item
          // (its id follows from the namespace and the UID); an item that went meanwhile is not revived.
          const [now] = await repo.findStudiesIn(tx, namespace, [group.studyInstanceUid]);
          if ((now && now.itemId !== itemId) || (!now && filed)) {
            throw new RuleViolation(STUDY_MESSAGES.studyChanged);
          }
          if (now) {
            return fileBatches(tx, true);
          }
          const first = group.files[0]!.instance;
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
          return fileBatches(tx, false);
        });
      }
    } catch (err) {
      if (expected && (repo.isStudyChanged(err) || repo.isOverQuota(err))) {
        // What the filing was sent with is stale: read afresh, by this request and the next.
        forgetStudy(ctx.db, namespace, group.studyInstanceUid);
        isStale = true;
        throw new StaleFiling();
      }
      throw repo.isStudyChanged(err) ? new RuleViolation(STUDY_MESSAGES.studyChanged) : err;
    }
    if (body.patient) {
      rememberStudy(ctx.db, body.patient, {
        itemId,
        studyInstanceUid: group.studyInstanceUid,
        patientId: body.patient,
        receiverId: null,
      });
    }
    filedNow = fresh.filter((file) => inserted.has(file.instance.sopInstanceUid));
    filedNow.forEach((file) => context.storedSops?.add(file.instance.sopInstanceUid));
  } catch (err) {
    filedNow = [];
    throw err;
  } finally {
    // An instance another request stored meanwhile keeps that request's file.
    for (const file of fresh.filter((candidate) => !filedNow.includes(candidate))) {
      if (isStale) {
        await pipeline(await ctx.storage.read(keyOf(file)), fs.createWriteStream(file.path));
      }
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
    moved: fresh,
  };
}

/** The series of these files, as the filing makes those missing (the last file of each describes it). */
function seriesOf(files: DicomFile[]): repo.NewSeries[] {
  const bySeries = new Map<string, DicomFile['instance']>();
  for (const file of files) {
    bySeries.set(file.instance.seriesInstanceUid, file.instance);
  }
  return [...bySeries.values()].map((instance) => ({
    seriesInstanceUid: instance.seriesInstanceUid,
    modality: instance.modality,
    seriesNumber: instance.seriesNumber,
    seriesDescription: instance.seriesDescription,
    bodyPartExamined: instance.bodyPartExamined,
  }));
}
