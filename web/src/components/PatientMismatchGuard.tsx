import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { PersonInFiles } from '@ra/shared';
import { counted } from '../lib/counted';
import { formatBirthDate } from '../lib/dates';
import { personNameOf } from '../lib/dicom-person-name';

function bornPhrase(date: string | null): string {
  return date ? `born ${formatBirthDate(date)}` : 'no birth date given';
}

/** The person most files name first (likely whom the study is of); a stable sort keeps the rest as given. */
function byFileCount(found: readonly PersonInFiles[]): PersonInFiles[] {
  return [...found].sort((a, b) => b.files - a.files);
}

/**
 * The wrong-patient guard: every person the files name (with how many files name each) beside the
 * chosen patient, and a choice to go on anyway or not at all. Focus moves to it so that keyboard
 * and screen-reader users meet it before anything else; the people are a list, read one by one.
 */
export function PatientMismatchGuard({
  found,
  patient,
  isBeforeUpload = false,
  onConfirm,
  onCancel,
}: {
  /** Every distinct name and birth date in the files, at least one. */
  found: readonly PersonInFiles[];
  /** The chosen patient; absent when the patient list has not come (the uid came in the address). */
  patient: { first_name: string; last_name: string; dob: string } | undefined;
  /** Read from the files on this computer: nothing has been sent yet, rather than nothing filed. */
  isBeforeUpload?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const chosenName = patient ? `${patient.first_name} ${patient.last_name}` : 'the chosen patient';
  return (
    <Alert variant="warning" className="mt-3" aria-labelledby="patient-mismatch-title">
      <h2 id="patient-mismatch-title" className="alert-heading h5" tabIndex={-1} ref={heading}>
        {found.length > 1 ? 'These files name more than one patient' : 'These files name a different patient'}
      </h2>
      <div className="row g-2 my-2">
        <div className="col-sm-6">
          <strong id="patient-mismatch-found">In the files:</strong>
          <ul className="mb-0 ps-3" aria-labelledby="patient-mismatch-found">
            {byFileCount(found).map((person) => (
              <li key={`${person.name}\u0000${person.birth_date ?? ''}`}>
                {personNameOf(person.name) || 'No name given'}, {bornPhrase(person.birth_date)} (
                {counted(person.files, 'file', 'files')})
              </li>
            ))}
          </ul>
        </div>
        <p className="col-sm-6 mb-0">
          <strong>Chosen patient:</strong> {chosenName}
          {patient && `, ${bornPhrase(patient.dob)}`}
        </p>
      </div>
      <p>
        Check that these images are {patient ? `${chosenName}’s` : 'this patient’s'}. Filed under the wrong
        patient, they would be read as theirs.{' '}
        {isBeforeUpload ? 'Nothing has been sent yet.' : 'Nothing has been filed yet.'}
      </p>
      <div className="d-flex flex-wrap gap-2">
        <Button variant="warning" onClick={onConfirm}>
          {isBeforeUpload ? `Upload and file under ${chosenName} anyway` : `File under ${chosenName} anyway`}
        </Button>
        <Button variant="outline-secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Alert>
  );
}
