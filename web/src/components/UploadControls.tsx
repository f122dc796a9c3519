import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { statusOf, type UploadTaskState } from '../lib/uploads/upload-task';

/** What follows "x of y sent" while an upload is not simply running. */
export function stateSuffix(state: UploadTaskState): string {
  switch (state) {
    case 'paused':
      return ' — paused';
    case 'pausing':
      return ' — pausing…';
    case 'canceling':
      return ' — canceling…';
    case 'canceled':
      return ' — canceled';
    default:
      return '';
  }
}

/** The error with Try again, then Pause / Resume / Cancel, of one upload or of a batch. */
export function UploadControls({
  state,
  error,
  canCancel,
  onPause,
  onResume,
  onCancel,
  onRetry,
}: {
  state: UploadTaskState;
  error: string | null | undefined;
  canCancel: boolean;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
  onRetry: () => void;
}) {
  return (
    <>
      {statusOf(state) === 'error' && (
        <Alert variant="danger" className="d-flex justify-content-between align-items-center">
          <span>{error}</span>
          <Button variant="outline-danger" size="sm" onClick={onRetry}>
            Try again
          </Button>
        </Alert>
      )}
      <div className="d-flex gap-2">
        <Button variant="outline-secondary" onClick={onPause} disabled={state !== 'running'}>
          Pause
        </Button>
        <Button
          variant="outline-primary"
          onClick={onResume}
          disabled={state !== 'paused' && state !== 'pausing'}
        >
          Resume
        </Button>
        <Button variant="outline-danger" onClick={onCancel} disabled={!canCancel}>
          Cancel
        </Button>
      </div>
    </>
  );
}
