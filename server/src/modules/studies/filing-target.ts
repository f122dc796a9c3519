import type { z } from 'zod';
import type { uploadStudyBodySchema } from '@ra/shared';
import type { Uploader } from '../archive-items/index.js';
import type { DicomFile } from './dicom-file-read.js';
import * as repo from './studies.repository.js';

/*
 * Where a study's files are filed: a patient's record or the uploader's Incoming list (the
 * namespace its UIDs are unique in), and the files grouped by study.
 */

export type UploadStudyBody = z.output<typeof uploadStudyBodySchema>;

/**
 * Where and how files are filed: upload-study's body, or STOW-RS's query. Without a patient
 * (`patient: null`), a physician's studies wait in their Incoming list; `receivedFrom` says who sent them.
 */
export type FilingTarget = Pick<UploadStudyBody, 'notes' | 'confirm_patient_mismatch'> & {
  patient: string | null;
  receivedFrom?: string;
};

/** Whether a study already in the archive is where the target files it: the same patient, or the same Incoming list. */
export function isFiledAsTarget(
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
export function namespaceOf(target: FilingTarget, user: Uploader): string {
  return target.patient ?? user.id;
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
