import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../../context.js';
import type { ActorFacts } from '../../lib/actor.js';
import { auditChange } from '../audit/index.js';
import type { Uploader } from '../archive-items/index.js';
import { readDicomFile } from './dicom-file-read.js';
import { fileOneStudy } from './study-filing.js';
import * as repo from './studies.repository.js';
import {
  REMOVED_FILES_GRACE_SECONDS,
  REMOVED_FILES_JOB,
  type RemovedFilesJobData,
} from './removed-files.job.js';
import { makeWorkDir, removeWorkDir } from './work-dirs.js';

/*
 * Instances the archive writes itself into a filed study (the reports module's SR and KO
 * documents): read and filed exactly as an upload or STOW-RS files them, and taken out again by
 * series when they are replaced.
 */

/** A filed study as the documents written into it need it: its UID, patient and attributes. */
export interface StudyForDocuments {
  studyInstanceUid: string;
  patientId: string;
  /** The stored attributes (DICOM JSON) of one of its instances, an image if it has one. */
  attributes: unknown;
  /** The instances asked for that the study holds, with their series and stored attributes. */
  instances: Awaited<ReturnType<typeof repo.findInstancesWithMetadata>>;
}

/**
 * The study of an archive item with these of its instances; undefined when the item is no study,
 * has no instance, or waits in an Incoming list (it belongs to no patient yet).
 */
export async function studyForDocuments(
  ctx: AppContext,
  itemId: string,
  sopInstanceUids: string[],
): Promise<StudyForDocuments | undefined> {
  const study = await repo.findFiledStudy(ctx.db, itemId);
  const representative = study?.patientId ? await repo.findRepresentativeInstance(ctx.db, itemId) : undefined;
  if (!study?.patientId || !representative) {
    return undefined;
  }
  const uids = [...new Set(sopInstanceUids)];
  return {
    studyInstanceUid: study.studyInstanceUid,
    patientId: study.patientId,
    attributes: representative.metadata,
    instances: uids.length > 0 ? await repo.findInstancesWithMetadata(ctx.db, itemId, uids) : [],
  };
}

/**
 * Files one Part 10 file the archive wrote into the patient's study, as `author` adds it (who must
 * still be able to add to the study, `item:extend`). The file is read on a decode thread and
 * filed by fileOneStudy, like any upload; a SOP Instance UID the study holds already is not
 * stored again.
 */
export async function fileGeneratedInstance(
  ctx: AppContext,
  author: Uploader & ActorFacts,
  patientId: string,
  name: string,
  bytes: Buffer,
): Promise<void> {
  const dir = await makeWorkDir(ctx.tusDir, 'generated-');
  try {
    const file = path.join(dir, 'instance.dcm');
    await fs.writeFile(file, bytes);
    const read = await readDicomFile(name, file, (data) => ctx.decoder.readInstance(data), bytes);
    if (!read || !('file' in read)) {
      throw new Error(
        `The archive's own ${name} could not be read back: ${read?.skipped.reason ?? 'no instance'}`,
      );
    }
    await fileOneStudy(
      ctx,
      author,
      { patient: patientId, notes: '', confirm_patient_mismatch: true },
      { studyInstanceUid: read.file.instance.studyInstanceUid, files: [read.file] },
      { recommendationId: null, ip: '' },
    );
  } finally {
    await removeWorkDir(dir);
  }
}

/**
 * Takes the instances of one series out of a study: all, or those stored before the instance
 * `keepFrom` (the one that replaces them). Their rows go in one transaction under the study's
 * lock, which also queues the deletion of their files after a grace period (an answer already
 * sending them finishes). Audited as a change of the study by `actorId`.
 */
export async function removeSeriesInstances(
  ctx: AppContext,
  actorId: string,
  itemId: string,
  seriesInstanceUid: string,
  keepFrom: string | null = null,
): Promise<void> {
  const study = await repo.findFiledStudy(ctx.db, itemId);
  if (!study) {
    return;
  }
  await ctx.db.transaction(async (tx) => {
    await repo.lockStudyUid(tx, study.namespaceId, study.studyInstanceUid);
    const keys = await repo.deleteSeriesInstances(tx, itemId, seriesInstanceUid, keepFrom);
    if (keys.length > 0) {
      await ctx.jobs.send(REMOVED_FILES_JOB, { keys } satisfies RemovedFilesJobData, {
        tx,
        startAfter: REMOVED_FILES_GRACE_SECONDS,
      });
      await auditChange(tx, {
        actorId,
        patientId: study.patientId,
        action: 'update',
        recordType: 'image',
        recordId: itemId,
        ip: null,
      });
    }
  });
}
