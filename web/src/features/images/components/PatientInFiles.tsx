import type { StudySummary } from '@ra/shared';
import { formatBirthDate } from '../../../lib/dates';
import { personNameOf } from '../../../lib/dicom-person-name';

/**
 * The patient as a study's files name them, kept as evidence of what was filed: it may differ from
 * the archive's patient when the wrong-patient warning was confirmed.
 */
export function PatientInFiles({ study, className = '' }: { study: StudySummary; className?: string }) {
  const birthDate = study.patient_birth_date_in_file;
  return (
    <dl className={`row small mb-0 ${className}`.trim()}>
      <dt className="col-sm-4 col-lg-3">Patient’s name in the files</dt>
      <dd className="col-sm-8 col-lg-9 mb-0">{personNameOf(study.patient_name_in_file) || 'Not given'}</dd>
      <dt className="col-sm-4 col-lg-3">Birth date in the files</dt>
      <dd className="col-sm-8 col-lg-9 mb-0">{birthDate ? formatBirthDate(birthDate) : 'Not given'}</dd>
    </dl>
  );
}
