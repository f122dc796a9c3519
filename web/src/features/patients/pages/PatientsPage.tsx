import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import type { Patient } from '@ra/shared';
import { useAuth } from '../../../app/auth/auth-context';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { ProfilePicture } from '../../../components/ProfilePicture';
import { formatBirthDate } from '../../../lib/dates';
import { PATHS } from '../../../lib/paths';
// The patient cards show the patient's images; the images feature owns how they are listed.
import { PatientImages } from '../../../components/PatientImages';
import { usePatients } from '../api/patients';

function PatientCard({ patient, canAddImage }: { patient: Patient; canAddImage: boolean }) {
  const [isOpen, setIsOpen] = useState(false);
  const [isShowingAll, setIsShowingAll] = useState(false);
  const panelId = `patient-images-${patient.uid}`;
  return (
    <Card className="mb-3 shadow-sm">
      <Card.Body>
        <div className="d-flex flex-wrap gap-3 align-items-center">
          <ProfilePicture url={patient.profile_image_url} className="rounded-circle" />
          <div className="flex-grow-1">
            <h2 className="h5 mb-1">
              {patient.first_name} {patient.last_name}
            </h2>
            <div className="small">Date of birth: {formatBirthDate(patient.dob)}</div>
            <div className="small">{patient.email}</div>
            <div className="small text-body-secondary">
              {patient.image_count} {patient.image_count === 1 ? 'image' : 'images'}
            </div>
          </div>
          <div className="d-flex gap-2">
            <Button
              variant="outline-primary"
              aria-expanded={isOpen}
              aria-controls={panelId}
              onClick={() => setIsOpen((open) => !open)}
            >
              View
            </Button>
            {canAddImage && (
              <LinkButton to={`${PATHS.upload}?patient=${patient.uid}`} variant="primary">
                Add Image
              </LinkButton>
            )}
          </div>
        </div>
        {isOpen && (
          <div id={panelId} className="mt-3">
            <PatientImages
              patient={patient}
              isShowingAll={isShowingAll}
              onShowAll={() => setIsShowingAll(true)}
            />
          </div>
        )}
      </Card.Body>
    </Card>
  );
}

export function PatientsPage() {
  const { user } = useAuth();
  const patients = usePatients();
  const isPhysician = user?.role === 'Physician';
  const list = patients.data?.pages.flatMap((page) => page.patients) ?? [];
  return (
    <Container className="py-5">
      <div className="d-flex flex-wrap justify-content-between align-items-center gap-2 mb-4">
        <h1 className="mb-0">Your Patients</h1>
        {isPhysician && <LinkButton to={PATHS.addPatient}>Add Patient</LinkButton>}
      </div>
      {patients.isPending && <PageSpinner label="Loading patients…" />}
      {patients.isError && (
        <Alert variant="danger">Your patients could not be loaded. Please reload the page.</Alert>
      )}
      {patients.isSuccess && list.length === 0 && (
        <p>
          {isPhysician
            ? 'You have no patients yet. Add a patient to upload their images.'
            : 'You have no patients yet. Patients appear here once they have paid for your opinion.'}
        </p>
      )}
      {list.map((patient) => (
        <PatientCard key={patient.uid} patient={patient} canAddImage={isPhysician} />
      ))}
      {patients.hasNextPage && (
        <Button
          variant="outline-secondary"
          onClick={() => void patients.fetchNextPage()}
          disabled={patients.isFetchingNextPage}
        >
          Load more patients
        </Button>
      )}
      <div className="mt-4">
        <LinkButton to={PATHS.dashboard} variant="outline-secondary">
          Back to Dashboard
        </LinkButton>
      </div>
    </Container>
  );
}
