import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createWriteStream } from 'node:fs';
import type { z } from 'zod';
import type { AssignIncomingResponse, IncomingList, assignIncomingBodySchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/errors.js';
import type { AuthUser } from '../../plugins/auth.js';
import { canUploadFor } from '../access/access.policy.js';
import { makeWorkDir, readDicomFile, type DicomFile } from '../studies/study-files.js';
import { fileOneStudy, groupByStudy, guardPatient } from '../studies/study-ingest.service.js';
import * as repo from './incoming.repository.js';

/**
 * Keeps studies received without a patient in the receiver's Incoming list (api-contract §10.3):
 * the files byte for byte under incoming/<id>/, a file received twice once.
 */
export async function receiveStudies(
  ctx: AppContext,
  user: AuthUser,
  files: DicomFile[],
  source: string,
): Promise<void> {
  for (const group of groupByStudy(files)) {
    const first = group.files[0]!.instance;
    const id = await repo.findOrCreateStudy(ctx.db, {
      receiverId: user.id,
      studyInstanceUid: group.studyInstanceUid,
      studyDate: first.studyDate,
      studyDescription: first.studyDescription,
      patientNameInFile: first.patientName,
      patientBirthDateInFile: first.patientBirthDate,
      source: source.slice(0, 200),
    });
    const rows = [];
    for (const file of group.files) {
      const storageKey = `incoming/${id}/${file.instance.sopInstanceUid}.dcm`;
      await ctx.storage.putFile(storageKey, file.path, { move: true });
      rows.push({
        incomingId: id,
        sopInstanceUid: file.instance.sopInstanceUid,
        seriesInstanceUid: file.instance.seriesInstanceUid,
        modality: file.instance.modality,
        storageKey,
        size: file.size,
      });
    }
    await repo.insertInstances(ctx.db, rows);
  }
}

export async function listIncoming(ctx: AppContext, user: AuthUser): Promise<IncomingList> {
  const rows = await repo.listStudies(ctx.db, user.id);
  return {
    studies: rows.map((row) => ({
      uid: row.id,
      study: {
        study_instance_uid: row.studyInstanceUid,
        study_date: row.studyDate,
        study_description: row.studyDescription,
        modalities: row.modalities,
        series_count: row.seriesCount,
        instance_count: row.instanceCount,
        patient_name_in_file: row.patientNameInFile,
        patient_birth_date_in_file: row.patientBirthDateInFile,
      },
      received_at: row.receivedAt.toISOString(),
      source: row.source,
    })),
  };
}

/**
 * Files a waiting study under one of the receiver's patients, through the same filing as
 * upload-study (the wrong-patient guard included); the Incoming entry then goes.
 */
export async function assignIncoming(
  ctx: AppContext,
  user: AuthUser,
  id: string,
  body: z.output<typeof assignIncomingBodySchema>,
  ip: string,
): Promise<AssignIncomingResponse> {
  const waiting = await repo.findStudyOf(ctx.db, user.id, id);
  if (!waiting || !(await canUploadFor(ctx, user, body.patient))) {
    throw new AppError('NOT_FOUND');
  }
  const workDir = await makeWorkDir(ctx.tusDir, 'incoming-');
  try {
    const files: DicomFile[] = [];
    for (const stored of waiting.files) {
      const file = path.join(workDir, `${stored.sopInstanceUid}.dcm`);
      await pipeline(await ctx.storage.read(stored.storageKey), createWriteStream(file));
      const read = await readDicomFile(stored.sopInstanceUid, file);
      if (read && 'file' in read) {
        files.push(read.file);
      }
    }
    const [group] = groupByStudy(files);
    if (!group) {
      throw new AppError('NOT_FOUND');
    }
    const target = {
      patient: body.patient,
      notes: '',
      confirm_patient_mismatch: body.confirm_patient_mismatch,
    };
    await guardPatient(ctx, target, [group]);
    const item = await fileOneStudy(ctx, user, target, group, { recommendationId: null, ip });
    await repo.deleteStudy(ctx.db, waiting.id);
    for (const stored of waiting.files) {
      await ctx.storage.delete(stored.storageKey);
    }
    return { success: true, item_uid: item.uid };
  } finally {
    await fs.rm(workDir, { recursive: true, force: true });
  }
}
