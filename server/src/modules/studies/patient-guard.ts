import { namesAnotherPatient, peopleInFiles, STUDY_MESSAGES } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { RuleViolation } from '../../lib/errors.js';
import type { DicomFile } from './dicom-file-read.js';
import * as repo from './studies.repository.js';
import { knownStudy, rememberPatient } from './known-studies.js';
import type { FiledStudy, FilingTarget, StudyFiles } from './filing-target.js';

/*
 * The wrong-patient guard (docs/api.md §12.2): files naming someone other than the patient they
 * are filed under are refused unless the uploader confirmed; every file is checked.
 */

/** The patient a file names, as the wrong-patient guard reads it. */
export function personOf(file: DicomFile) {
  return { name: file.instance.patientName, birthDate: file.instance.patientBirthDate };
}

/**
 * Refuses to file studies under the wrong patient: files naming someone else, unless the uploader
 * confirmed (docs/api.md §12.2, every file checked). Returns what filing under the patient starts
 * from, read in one statement: the studies among them the patient holds already, by Study
 * Instance UID (studies of the same UIDs filed for anyone else are not looked at), which of the
 * files' SOP Instance UIDs the patient holds already, and the bytes the uploader has stored.
 */
export async function guardPatient(
  ctx: AppContext,
  body: FilingTarget & { patient: string },
  groups: StudyFiles[],
  uploaderId: string,
): Promise<{ filed: Map<string, FiledStudy>; storedSops: Set<string>; uploaderBytes: number }> {
  const state = await repo.findFilingState(
    ctx.db,
    body.patient,
    uploaderId,
    groups.map((group) => group.studyInstanceUid),
    groups.flatMap((group) => group.files.map((file) => file.instance.sopInstanceUid)),
  );
  rememberPatient(ctx.db, body.patient, state.patient);
  refuseOtherPeople(
    body,
    state.patient,
    groups.flatMap((group) => group.files.map(personOf)),
  );
  return {
    filed: new Map(state.filed.map((study) => [study.studyInstanceUid, study])),
    storedSops: state.storedSops,
    uploaderBytes: state.uploaderBytes,
  };
}

/**
 * What filing one study under a patient starts from when this process filed that study for them
 * before (known-studies.ts) and the guard passes on the patient as then read: the study as found,
 * and the patient the filing's statement must still find (null: the uploader confirmed). Undefined
 * sends the request through guardPatient, which reads everything afresh; so does a guard that
 * would refuse, so that no refusal rests on what was remembered.
 */
export function knownFilingOf(
  ctx: AppContext,
  body: FilingTarget & { patient: string },
  groups: StudyFiles[],
): { filed: FiledStudy; patient: repo.PatientDetails | null } | undefined {
  const [group, ...others] = groups;
  if (!group || others.length > 0 || group.files.length > repo.INSTANCES_PER_STATEMENT) {
    return undefined;
  }
  const known = knownStudy(ctx.db, body.patient, group.studyInstanceUid);
  if (!known) {
    return undefined;
  }
  if (body.confirm_patient_mismatch) {
    return { filed: known.filed, patient: null };
  }
  const isAnotherPerson = group.files.some((file) => namesAnotherPatient(personOf(file), known.patient));
  return isAnotherPerson ? undefined : { filed: known.filed, patient: known.patient };
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
  refuseOtherPeople(body, await repo.findPatientDetails(ctx.db, body.patient), namesInFiles);
}

function refuseOtherPeople(
  body: { confirm_patient_mismatch: boolean },
  patient: repo.PatientDetails | undefined,
  namesInFiles: { name: string; birthDate: string | null }[],
) {
  if (body.confirm_patient_mismatch) {
    return;
  }
  if (patient && namesInFiles.some((found) => namesAnotherPatient(found, patient))) {
    // As the files give the names ("Family^Given"); the page writes them as people do.
    throw new RuleViolation(STUDY_MESSAGES.patientMismatch, { found: peopleInFiles(namesInFiles) });
  }
}
