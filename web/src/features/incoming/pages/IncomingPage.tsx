import { useEffect } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { useNavigate } from 'react-router';
import { useAuth } from '../../../app/auth/auth-context';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { PATHS } from '../../../lib/paths';
import { usePatientChoices } from '../../../lib/api/patient-choices';
import { useIncoming } from '../api/incoming';
import { FiledAlert } from '../components/FiledAlert';
import { IncomingTable } from '../components/IncomingTable';
import { useAssignIncoming } from '../components/use-assign-incoming';
import { useToasts } from '../../../components/toasts/toast-context';

const NOT_AUTHORIZED = 'You are not authorized to view this page.';

function IncomingStudies() {
  const incoming = useIncoming();
  const patients = usePatientChoices();
  const assigning = useAssignIncoming();
  const patientList = patients.data?.pages.flatMap((page) => page.patients) ?? [];
  const filedPatient = patientList.find((p) => p.uid === assigning.filed?.patientUid);

  if (incoming.isPending) {
    return <PageSpinner label="Loading incoming studies…" />;
  }
  const studies = incoming.data?.studies ?? [];
  return (
    <>
      {assigning.filed && (
        <FiledAlert
          itemUid={assigning.filed.itemUid}
          patientName={filedPatient ? `${filedPatient.first_name} ${filedPatient.last_name}` : 'the patient'}
        />
      )}
      {assigning.error && <Alert variant="danger">{assigning.error}</Alert>}
      {!incoming.data ? (
        <Alert variant="danger" className="d-flex justify-content-between align-items-center">
          <span>The incoming studies could not be loaded.</span>
          <Button variant="outline-danger" size="sm" onClick={() => void incoming.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : studies.length === 0 ? (
        <p>No studies are waiting.</p>
      ) : (
        <>
          {patients.isError && <Alert variant="danger">Your patients could not be loaded.</Alert>}
          {patients.isSuccess && patientList.length === 0 && (
            <Alert variant="info">You have no patients to file these studies under.</Alert>
          )}
          <IncomingTable
            studies={studies}
            patients={patientList}
            busyUid={assigning.busyUid}
            mismatch={assigning.mismatch}
            onAssign={assigning.assign}
            onConfirmMismatch={assigning.confirmMismatch}
            onCancelMismatch={assigning.cancelMismatch}
          />
        </>
      )}
    </>
  );
}

/** Studies sent by DICOMweb clients without a patient, for the physician to file (docs/api.md §12.3). */
export function IncomingPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const toasts = useToasts();
  const isAllowed = user?.role === 'Physician';

  useEffect(() => {
    if (user && !isAllowed) {
      toasts.show({ variant: 'danger', message: NOT_AUTHORIZED });
      void navigate(PATHS.home, { replace: true });
    }
  }, [user, isAllowed, navigate, toasts]);

  if (!user || !isAllowed) {
    return null;
  }
  return (
    <Container className="py-5">
      <h1 className="mb-3">Incoming Studies</h1>
      <p className="text-body-secondary">
        Studies sent to you by other systems without naming a patient, newest first. File each under one of
        your patients.
      </p>
      <IncomingStudies />
      <div className="mt-4">
        <LinkButton to={PATHS.dashboard} variant="outline-secondary">
          Back to Dashboard
        </LinkButton>
      </div>
    </Container>
  );
}
