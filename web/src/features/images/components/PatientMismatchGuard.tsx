import { useEffect, useRef } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import type { PatientMismatch } from '@ra/shared';
import { formatBirthDate } from '../../../lib/dates';
import { personNameOf } from './dicom-person-name';

function bornPhrase(date: string | null): string {
  return date ? `born ${formatBirthDate(date)}` : 'no birth date given';
}

/**
 * The wrong-patient guard: the name and birth date in the files beside the chosen patient's, and
 * a choice to file anyway or not at all. Focus moves to it so that keyboard and screen-reader
 * users meet it before anything else.
 */
export function PatientMismatchGuard({
  found,
  patient,
  onConfirm,
  onCancel,
}: {
  found: PatientMismatch['found'];
  /** The chosen patient; absent when the patient list has not come (the uid came in the address). */
  patient: { first_name: string; last_name: string; dob: string } | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const chosenName = patient ? `${patient.first_name} ${patient.last_name}` : 'the chosen patient';
  return (
    <Alert variant="warning" className="mt-3" aria-labelledby="patient-mismatch-title">
      <h2 id="patient-mismatch-title" className="alert-heading h5" tabIndex={-1} ref={heading}>
        These files name a different patient
      </h2>
      <div className="row g-2 my-2">
        <p className="col-sm-6 mb-0">
          <strong>In the files:</strong> {personNameOf(found.name) || 'no name given'},{' '}
          {bornPhrase(found.birth_date)}
        </p>
        <p className="col-sm-6 mb-0">
          <strong>Chosen patient:</strong> {chosenName}
          {patient && `, ${bornPhrase(patient.dob)}`}
        </p>
      </div>
      <p>
        Check that these images are {patient ? `${chosenName}’s` : 'this patient’s'}. Filed under the wrong
        patient, they would be read as theirs. Nothing has been filed yet.
      </p>
      <div className="d-flex flex-wrap gap-2">
        <Button variant="warning" onClick={onConfirm}>
          File under {chosenName} anyway
        </Button>
        <Button variant="outline-secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Alert>
  );
}
