import type { Readable } from 'node:stream';
import { STUDY_MESSAGES, type DicomJsonDataset } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError, InvalidInput, RuleViolation } from '../../lib/errors.js';
import type { Actor } from '../../lib/actor.js';
import { may, mayReceiveUnfiled, requireStorer } from '../access/index.js';
import { READ_LIMIT_MESSAGES } from '../dicom/index.js';
import { partitionReads, type FileRead, type RefusedFile } from '../studies/index.js';
import { dicomPartReaders } from '../studies/index.js';
import { makeWorkFiles } from '../studies/index.js';
import {
  fileOneStudy,
  groupByStudy,
  guardPatient,
  knownFilingOf,
  receivingTarget,
  StaleFiling,
  storageBudget,
  storageBudgetAfter,
  type FiledStudy,
  type FilingContext,
  type FilingTarget,
  type StudyFiles,
} from '../studies/index.js';
import {
  MultipartError,
  parseMultipartRelated,
  readMultipartRelated,
} from '../../lib/multipart-related/multipart-related.js';

/**
 * A STOW-RS request's bounds: a part is held in memory until it is written to disk, and is no larger
 * than the largest instance read (DICOM_MAX_INSTANCE_BYTES).
 */
const stowLimits = (ctx: AppContext) => ({
  maxParts: 10_000,
  maxPartBytes: ctx.config.dicom.maxInstanceBytes,
  maxTotalBytes: 8 * 1024 ** 3,
});

export const NO_PATIENT = 'Name the patient to file the studies under (?patient=<uid>).';

/** PS3.18 Table I.2-2's failure reasons (0008,1197), and which refusal of ours is which. */
const FAILURE = {
  outOfResources: 0xa700,
  cannotUnderstand: 0xc000,
  processingFailure: 0x0110,
} as const;
const FAILURE_OF_REASON: Record<string, number> = {
  [STUDY_MESSAGES.metadataTooLarge]: FAILURE.outOfResources,
  [READ_LIMIT_MESSAGES.inflatesTooLarge]: FAILURE.outOfResources,
  [READ_LIMIT_MESSAGES.tooManyElements]: FAILURE.outOfResources,
  [READ_LIMIT_MESSAGES.tooMuchMemory]: FAILURE.outOfResources,
  [STUDY_MESSAGES.storageFull]: FAILURE.outOfResources,
  [STUDY_MESSAGES.processingFailed]: FAILURE.processingFailure,
  [STUDY_MESSAGES.cannotAddToStudy]: FAILURE.processingFailure,
  [STUDY_MESSAGES.studyChanged]: FAILURE.processingFailure,
};

/** A FailedSOPSequence item: the instance, when it could be read far enough to name it, and why. */
function failureItem(failed: Pick<RefusedFile, 'reason' | 'instance'>) {
  const item: DicomJsonDataset = {
    '00081197': { vr: 'US', Value: [FAILURE_OF_REASON[failed.reason] ?? FAILURE.cannotUnderstand] },
  };
  if (failed.instance) {
    item['00081150'] = { vr: 'UI', Value: [failed.instance.sopClassUid] };
    item['00081155'] = { vr: 'UI', Value: [failed.instance.sopInstanceUid] };
  }
  return item;
}

export interface StowAnswer {
  status: 200 | 202 | 409;
  body: DicomJsonDataset;
}

export class UnsupportedMediaType extends Error {}

function sequence(items: DicomJsonDataset[]) {
  return { vr: 'SQ', Value: items };
}

/**
 * STOW-RS (PS3.18 10.5): files the instances of a multipart/related application/dicom request under
 * a patient, through the same filing as upload-study (one item per study, duplicates stored once,
 * the wrong-patient guard unless `confirm_patient_mismatch=true`); without a patient, a physician's
 * studies wait in their Incoming list.
 */
export async function storeInstances(
  ctx: AppContext,
  user: Actor,
  request: {
    body: Readable;
    contentType: string | undefined;
    patient?: string;
    confirm: boolean;
    ip: string;
    /** Who sent it (the client's User-Agent), shown in the Incoming list. */
    source: string;
  },
  urlOf: (study: string, series?: string, instance?: string) => string,
): Promise<StowAnswer> {
  requireStorer(user);
  // Without a patient, a physician's studies wait in their Incoming list; a radiologist must name one.
  if (!request.patient && !mayReceiveUnfiled(user)) {
    throw new InvalidInput('patient', NO_PATIENT);
  }
  if (request.patient && !(await may(ctx, user, 'item:store', request.patient))) {
    throw new AppError('NOT_FOUND');
  }
  // Filing under a patient reads the storage left with the rest of what it starts from.
  const early = request.patient ? undefined : await storageBudget(ctx, user);
  let type: string | undefined;
  try {
    type = parseMultipartRelated(request.contentType).type;
  } catch (err) {
    if (err instanceof MultipartError) {
      throw new UnsupportedMediaType(err.message);
    }
    throw err;
  }
  if (type && type.toLowerCase() !== 'application/dicom') {
    throw new UnsupportedMediaType('STOW-RS takes multipart/related; type="application/dicom".');
  }

  const workFiles = await makeWorkFiles(ctx.tusDir);
  const reads: Promise<FileRead>[] = [];
  /** Working files moved into storage, which the clean-up need not look for. */
  const moved = new Set<string>();
  try {
    const parsed: Promise<FileRead>[] = [];
    let index = 0;
    try {
      for await (const part of readMultipartRelated(request.body, request.contentType, stowLimits(ctx))) {
        index += 1;
        // Written and parsed on a worker thread while this one reads the next parts.
        const started = await dicomPartReaders.start(`part ${index}`, workFiles.pathOf(`${index}.dcm`), part);
        parsed.push(started.parsed);
        reads.push(started.read);
      }
    } catch (err) {
      if (err instanceof MultipartError) {
        throw new InvalidInput('body', err.message);
      }
      throw err;
    }
    // What the files are is known before they are all on disk: the database is asked what filing
    // them needs while the last are written, and nothing is filed before every file is written.
    const { files, skipped } = partitionReads(await Promise.all(parsed));
    const written = Promise.all(reads);
    // Awaited below, before any filing; a failure until then is not unhandled.
    written.catch(() => undefined);
    const failed: RefusedFile[] = [...skipped];
    const groups = groupByStudy(files);
    // Each study is filed on its own: one that cannot be filed fails its own instances, not the
    // other studies of the request.
    const storedGroups: StudyFiles[] = [];
    const fileGroup = async (
      group: StudyFiles,
      target: FilingTarget,
      filed: FiledStudy | null,
      found: Pick<FilingContext, 'storage' | 'storedSops' | 'expected'>,
    ) => {
      try {
        const { overQuota, moved: movedNow } = await fileOneStudy(ctx, user, target, group, {
          recommendationId: null,
          ip: request.ip,
          isFromClient: true,
          filed,
          ...found,
        });
        movedNow.forEach((file) => moved.add(file.path));
        storedGroups.push({ ...group, files: group.files.filter((file) => !overQuota.includes(file)) });
        failed.push(
          ...overQuota.map((file) => ({
            name: file.name,
            reason: STUDY_MESSAGES.storageFull,
            instance: file.instance,
          })),
        );
      } catch (err) {
        if (err instanceof StaleFiling) {
          throw err;
        }
        const reason = err instanceof RuleViolation ? err.message : STUDY_MESSAGES.processingFailed;
        if (!(err instanceof RuleViolation)) {
          ctx.log.error({ err, study: group.studyInstanceUid }, 'STOW-RS could not file a study');
        }
        failed.push(...group.files.map((file) => ({ name: file.name, reason, instance: file.instance })));
      }
    };
    /**
     * A study sent instance by instance: from its second request on, one statement files each
     * request and checks what would otherwise be read first (known-studies.ts). Whether it was
     * filed so; when what was known is stale, the request is filed the long way, as if nothing
     * had been known.
     */
    const fileKnownStudy = async (target: FilingTarget & { patient: string }) => {
      const known = knownFilingOf(ctx, target, groups);
      if (!known) {
        return false;
      }
      await written;
      try {
        await fileGroup(groups[0]!, target, known.filed, {
          storedSops: new Set(),
          expected: { patient: known.patient },
        });
        return true;
      } catch (err) {
        if (err instanceof StaleFiling) {
          return false;
        }
        throw err;
      }
    };
    if (request.patient) {
      const target = { patient: request.patient, notes: '', confirm_patient_mismatch: request.confirm };
      if (!(await fileKnownStudy(target))) {
        const [{ filed, storedSops, uploaderBytes }] = await Promise.all([
          guardPatient(ctx, target, groups, user.id),
          written,
        ]);
        const storage = storageBudgetAfter(ctx, uploaderBytes);
        for (const group of groups) {
          const study = filed.get(group.studyInstanceUid) ?? null;
          await fileGroup(group, target, study, { storage, storedSops });
        }
      }
    } else {
      await written;
      for (const group of groups) {
        const source = request.source.slice(0, 200);
        const { target, filed } = await receivingTarget(ctx, user, group, source);
        await fileGroup(group, target, filed, { storage: early! });
      }
    }

    // Instances the patient already held count as stored: they are there to be retrieved.
    const referenced = storedGroups.flatMap((group) =>
      group.files.map(({ instance }) => ({
        '00081150': { vr: 'UI', Value: [instance.sopClassUid] },
        '00081155': { vr: 'UI', Value: [instance.sopInstanceUid] },
        '00081190': {
          vr: 'UR',
          Value: [urlOf(instance.studyInstanceUid, instance.seriesInstanceUid, instance.sopInstanceUid)],
        },
      })),
    );
    const failures = failed.map(failureItem);
    const body: DicomJsonDataset = {};
    if (storedGroups.length === 1) {
      body['00081190'] = { vr: 'UR', Value: [urlOf(storedGroups[0]!.studyInstanceUid)] };
    }
    if (failures.length > 0) {
      body['00081198'] = sequence(failures);
    }
    if (referenced.length > 0) {
      body['00081199'] = sequence(referenced);
    }
    const status = referenced.length === 0 ? 409 : failures.length > 0 ? 202 : 200;
    return { status, body };
  } finally {
    // The answer does not wait for the clean-up: what is left is only what was not filed, and a
    // file this misses is removed with the working folder of a process that has gone. Every part
    // handed over is written or failed before its file is removed.
    void Promise.allSettled(reads)
      .then(() => workFiles.remove(moved))
      .catch((err: unknown) => {
        ctx.log.warn({ err }, 'STOW-RS could not remove its working files');
      });
  }
}
