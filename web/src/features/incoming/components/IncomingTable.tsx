import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Table from 'react-bootstrap/Table';
import type { IncomingStudy, Patient } from '@ra/shared';
import { StudyFacts } from '../../../components/StudyFacts';
import { formatBirthDate, formatDateTime } from '../../../lib/dates';
import { personNameOf } from '../../../lib/dicom-person-name';
import { PatientMismatchGuard } from '../../../components/PatientMismatchGuard';
import type { PendingMismatch } from './use-assign-incoming';

const COLUMNS = 5;

function InTheFiles({ study }: { study: IncomingStudy['study'] }) {
  const birthDate = study.patient_birth_date_in_file;
  return (
    <>
      <div>{personNameOf(study.patient_name_in_file) || 'No name given'}</div>
      <div className="small text-body-secondary">
        {birthDate ? `Born ${formatBirthDate(birthDate)}` : 'No birth date given'}
      </div>
    </>
  );
}

/** The patient to file one study under, and the button that files it. */
function AssignForm({
  item,
  patients,
  isBusy,
  onAssign,
}: {
  item: IncomingStudy;
  patients: Patient[];
  isBusy: boolean;
  onAssign: (patientUid: string) => void;
}) {
  const [patient, setPatient] = useState('');
  const label = `Patient for ${item.study.study_description || item.study.study_instance_uid}`;

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (patient) {
      onAssign(patient);
    }
  }

  return (
    <Form onSubmit={handleSubmit} className="d-flex flex-wrap gap-2 align-items-center">
      <Form.Select
        size="sm"
        aria-label={label}
        value={patient}
        onChange={(event) => setPatient(event.target.value)}
        disabled={isBusy}
        className="w-auto"
      >
        <option value="">Choose a patient</option>
        {patients.map((p) => (
          <option key={p.uid} value={p.uid}>
            {p.first_name} {p.last_name} ({p.email})
          </option>
        ))}
      </Form.Select>
      <Button type="submit" size="sm" disabled={!patient || isBusy}>
        {isBusy ? 'Assigning…' : 'Assign'}
      </Button>
    </Form>
  );
}

/** The studies waiting to be filed, newest first, each with its own patient choice. */
export function IncomingTable({
  studies,
  patients,
  busyUid,
  mismatch,
  onAssign,
  onConfirmMismatch,
  onCancelMismatch,
}: {
  studies: IncomingStudy[];
  patients: Patient[];
  busyUid: string | null;
  mismatch: PendingMismatch | null;
  onAssign: (studyUid: string, patientUid: string) => void;
  onConfirmMismatch: () => void;
  onCancelMismatch: () => void;
}) {
  return (
    <Table responsive className="align-middle">
      <caption className="visually-hidden">Studies waiting to be filed, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Received</th>
          <th scope="col">From</th>
          <th scope="col">Study</th>
          <th scope="col">In the files</th>
          <th scope="col">Assign</th>
        </tr>
      </thead>
      <tbody>
        {studies.map((item) => {
          const isGuarded = mismatch?.studyUid === item.uid;
          return [
            <tr key={item.uid}>
              <td>
                <time dateTime={item.received_at}>{formatDateTime(item.received_at)}</time>
              </td>
              <td>{item.source}</td>
              <td>
                <StudyFacts study={item.study} />
              </td>
              <td>
                <InTheFiles study={item.study} />
              </td>
              <td>
                <AssignForm
                  item={item}
                  patients={patients}
                  isBusy={busyUid === item.uid || isGuarded}
                  onAssign={(patientUid) => onAssign(item.uid, patientUid)}
                />
              </td>
            </tr>,
            isGuarded && (
              <tr key={`${item.uid}-guard`}>
                <td colSpan={COLUMNS}>
                  <PatientMismatchGuard
                    found={mismatch.found}
                    patient={patients.find((p) => p.uid === mismatch.patientUid)}
                    onConfirm={onConfirmMismatch}
                    onCancel={onCancelMismatch}
                  />
                </td>
              </tr>
            ),
          ];
        })}
      </tbody>
    </Table>
  );
}
