import Alert from 'react-bootstrap/Alert';
import type { SaveStatus } from '../cornerstone/use-annotation-sync';

/** Whether the user's measurements are saved; a failure stays on screen until a later save works. */
export function AnnotationStatus({ status, isLoadFailed }: { status: SaveStatus; isLoadFailed: boolean }) {
  if (isLoadFailed) {
    return (
      <Alert variant="warning" className="mt-2 mb-0 py-2">
        The saved measurements could not be loaded; new ones are still saved.
      </Alert>
    );
  }
  if (status === 'failed') {
    return (
      <Alert variant="danger" className="mt-2 mb-0 py-2">
        A change to your measurements could not be saved. Move the measurement again to retry.
      </Alert>
    );
  }
  return (
    <p className="small text-body-secondary mt-2 mb-0" role="status" data-testid="annotation-status">
      {status === 'saving' && 'Saving your measurements…'}
      {status === 'saved' && 'Your measurements are saved.'}
    </p>
  );
}
