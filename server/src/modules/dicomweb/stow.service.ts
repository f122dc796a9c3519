import path from 'node:path';
import type { Readable } from 'node:stream';
import type { DicomJsonDataset } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError, InvalidInput } from '../../lib/errors.js';
import type { AuthUser } from '../../plugins/auth.js';
import { canUploadFor } from '../access/access.policy.js';
import { dicomPartReaders, type PartRead } from '../studies/dicom-part-readers.js';
import { sortReads } from '../studies/study-files.js';
import { makeWorkDir, removeWorkDir } from '../studies/work-dirs.js';
import {
  fileOneStudy,
  groupByStudy,
  guardPatient,
  receivingTarget,
} from '../studies/study-ingest.service.js';
import { MultipartError, parseMultipartRelated, readMultipartRelated } from './multipart-related.js';

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
/** PS3.18 Table I.2-2: "Error: Cannot understand" — the part is not a DICOM instance we can read. */
const CANNOT_UNDERSTAND = 0xc000;

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
  user: AuthUser,
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
  if (user.role === 'PATIENT') {
    throw new AppError('FORBIDDEN');
  }
  // Without a patient, a physician's studies wait in their Incoming list; a radiologist must name one.
  if (!request.patient && user.role !== 'PHYSICIAN') {
    throw new InvalidInput('patient', NO_PATIENT);
  }
  if (request.patient && !(await canUploadFor(ctx, user, request.patient))) {
    throw new AppError('NOT_FOUND');
  }
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

  const workDir = await makeWorkDir(ctx.tusDir, 'stow-');
  try {
    const reads: Promise<PartRead>[] = [];
    let index = 0;
    try {
      for await (const part of readMultipartRelated(request.body, request.contentType, stowLimits(ctx))) {
        index += 1;
        // Written and parsed on a worker thread while this one reads the next parts.
        const { read } = await dicomPartReaders.start(
          `part ${index}`,
          path.join(workDir, `${index}.dcm`),
          part.body,
        );
        reads.push(read);
      }
    } catch (err) {
      if (err instanceof MultipartError) {
        throw new InvalidInput('body', err.message);
      }
      throw err;
    } finally {
      // Every part handed over is written or failed before the work folder can be removed.
      await Promise.allSettled(reads);
    }
    const { files, skipped: failed } = sortReads(await Promise.all(reads));
    const groups = groupByStudy(files);
    if (request.patient) {
      const target = { patient: request.patient, notes: '', confirm_patient_mismatch: request.confirm };
      const filed = await guardPatient(ctx, target, groups);
      for (const group of groups) {
        await fileOneStudy(ctx, user, target, group, {
          recommendationId: null,
          ip: request.ip,
          isFromClient: true,
          filed: filed.get(group.studyInstanceUid) ?? null,
        });
      }
    } else {
      for (const group of groups) {
        const source = request.source.slice(0, 200);
        const { target, filed } = await receivingTarget(ctx, user, group, source);
        await fileOneStudy(ctx, user, target, group, {
          recommendationId: null,
          ip: request.ip,
          isFromClient: true,
          filed,
        });
      }
    }

    // Instances the archive already held count as stored: they are there to be retrieved.
    const referenced = files.map(({ instance }) => ({
      '00081150': { vr: 'UI', Value: [instance.sopClassUid] },
      '00081155': { vr: 'UI', Value: [instance.sopInstanceUid] },
      '00081190': {
        vr: 'UR',
        Value: [urlOf(instance.studyInstanceUid, instance.seriesInstanceUid, instance.sopInstanceUid)],
      },
    }));
    const failures = failed.map(() => ({ '00081197': { vr: 'US', Value: [CANNOT_UNDERSTAND] } }));
    const body: DicomJsonDataset = {};
    if (groups.length === 1) {
      body['00081190'] = { vr: 'UR', Value: [urlOf(groups[0]!.studyInstanceUid)] };
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
    await removeWorkDir(workDir);
  }
}
