import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import { Link } from 'react-router';
import { useAuth } from '../../../app/auth/auth-context';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { PATHS } from '../../../lib/paths';
import { useAccessHistory } from '../api/access-history';
import { AccessHistoryTable } from '../components/AccessHistoryTable';

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <Alert variant="danger" className="d-flex justify-content-between align-items-center">
      <span>Your access history could not be loaded.</span>
      <Button variant="outline-danger" size="sm" onClick={onRetry}>
        Try again
      </Button>
    </Alert>
  );
}

function PatientAccessHistory() {
  const history = useAccessHistory();
  const entries = history.data?.pages.flatMap((page) => page.entries) ?? [];

  if (history.isPending) {
    return <PageSpinner label="Loading your access history…" />;
  }
  if (!history.data) {
    return <LoadFailed onRetry={() => void history.refetch()} />;
  }
  if (entries.length === 0) {
    return <p>Nobody else has accessed your records yet.</p>;
  }
  return (
    <>
      <AccessHistoryTable entries={entries} />
      {history.isFetchNextPageError && <LoadFailed onRetry={() => void history.fetchNextPage()} />}
      {history.hasNextPage && !history.isFetchNextPageError && (
        <Button
          variant="outline-secondary"
          onClick={() => void history.fetchNextPage()}
          disabled={history.isFetchingNextPage}
        >
          Load more
        </Button>
      )}
    </>
  );
}

/** Patients see who else opened their records (docs/api.md §19); the server answers only patients. */
export function AccessHistoryPage() {
  const { user } = useAuth();
  const isPatient = user?.role === 'Patient';
  return (
    <Container className="py-5">
      <h1 className="mb-3">Access History</h1>
      {isPatient ? (
        <>
          <p className="text-body-secondary">
            Everyone who opened your records, newest first. Your own visits are not listed. Links you shared
            are managed on <Link to={PATHS.shares}>Shared links</Link>.
          </p>
          <PatientAccessHistory />
        </>
      ) : (
        <p>Access History is for patients: it shows them who has viewed their records.</p>
      )}
      <div className="mt-4">
        <LinkButton to={PATHS.dashboard} variant="outline-secondary">
          Back to Dashboard
        </LinkButton>
      </div>
    </Container>
  );
}
