import { namesAnotherPatient } from '@ra/shared';
import type { AppContext } from '../../context.js';
import type { Actor } from '../../lib/actor.js';
import { may } from '../access/index.js';
import * as repo from './studies.repository.js';
import type { FiledStudy, FilingTarget, StudyFiles } from './filing-target.js';
import { personOf } from './patient-guard.js';

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
    if (!(await may(ctx, user, 'item:store', filed.patientId!))) {
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
