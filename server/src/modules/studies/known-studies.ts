import type { Queryable } from '../../db/client.js';
import type { FiledStudy } from './filing-target.js';
import type { PatientDetails } from './studies.repository.js';

/*
 * What this process last found when it filed studies under patients, so that a client sending a
 * study instance by instance (a gateway's STOW-RS) has each request filed in one statement instead
 * of first asking the database what filing needs (filing_state). Nothing here is trusted: the
 * filing's statement checks every piece against the database (migration 0023); when one is
 * stale, the study is forgotten here and the request is filed the long way, reading afresh. Each
 * database has its own (tests run many in one process).
 */

/** Entries kept; the oldest go first. A few hundred bytes each. */
const MAX_ENTRIES = 5_000;

interface Known {
  /** A patient's name and birth date, by patient id, as the wrong-patient guard last read them. */
  patients: Map<string, PatientDetails>;
  /** A study filed under a patient, by patient id and Study Instance UID. */
  studies: Map<string, FiledStudy>;
}
const byDatabase = new WeakMap<Queryable, Known>();

function knownIn(db: Queryable): Known {
  let known = byDatabase.get(db);
  if (!known) {
    known = { patients: new Map(), studies: new Map() };
    byDatabase.set(db, known);
  }
  return known;
}

function keep<T>(map: Map<string, T>, key: string, value: T) {
  map.delete(key);
  map.set(key, value);
  if (map.size > MAX_ENTRIES) {
    map.delete(map.keys().next().value!);
  }
}

const studyKey = (patientId: string, studyInstanceUid: string) => `${patientId}\0${studyInstanceUid}`;

export function rememberPatient(db: Queryable, patientId: string, details: PatientDetails | undefined) {
  const { patients } = knownIn(db);
  if (details) {
    keep(patients, patientId, details);
  } else {
    patients.delete(patientId);
  }
}

export function rememberStudy(db: Queryable, patientId: string, study: FiledStudy) {
  keep(knownIn(db).studies, studyKey(patientId, study.studyInstanceUid), study);
}

/** Forgets a study and its patient after a filing found either stale. */
export function forgetStudy(db: Queryable, patientId: string, studyInstanceUid: string) {
  const { patients, studies } = knownIn(db);
  studies.delete(studyKey(patientId, studyInstanceUid));
  patients.delete(patientId);
}

/** The patient's details and the study as last found, when both are known. */
export function knownStudy(
  db: Queryable,
  patientId: string,
  studyInstanceUid: string,
): { patient: PatientDetails; filed: FiledStudy } | undefined {
  const { patients, studies } = knownIn(db);
  const patient = patients.get(patientId);
  const filed = studies.get(studyKey(patientId, studyInstanceUid));
  return patient && filed ? { patient, filed } : undefined;
}
