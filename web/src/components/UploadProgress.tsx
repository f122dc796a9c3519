import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { megabytes } from '../lib/uploads/batch-progress';
import { statusOf, type UploadSnapshot, type UploadTask } from '../lib/uploads/upload-task';

/** Progress, bytes sent, and the Pause / Resume / Cancel / Try again controls of one upload. */
export function UploadProgress({ task, snapshot }: { task: UploadTask; snapshot: UploadSnapshot }) {
  const status = statusOf(snapshot.state);
  const percent = snapshot.bytesTotal > 0 ? Math.floor((snapshot.bytesSent / snapshot.bytesTotal) * 100) : 0;
  return (
    <div className="mt-3" aria-live="polite">
      {snapshot.isResumed && <p className="small mb-1">Resuming your earlier upload of this file.</p>}
      <ProgressBar
        now={percent}
        label={`${percent}%`}
        animated={status === 'running'}
        variant={status === 'error' ? 'danger' : status === 'success' ? 'success' : undefined}
        aria-label="Upload progress"
      />
      <p className="small mt-1 mb-2">
        {megabytes(snapshot.bytesSent)} of {megabytes(snapshot.bytesTotal)} sent
        {snapshot.state === 'paused' && ' — paused'}
        {snapshot.state === 'pausing' && ' — pausing…'}
        {snapshot.state === 'canceling' && ' — canceling…'}
        {snapshot.state === 'canceled' && ' — canceled'}
      </p>
      {status === 'error' && (
        <Alert variant="danger" className="d-flex justify-content-between align-items-center">
          <span>{snapshot.error}</span>
          <Button variant="outline-danger" size="sm" onClick={() => task.retry()}>
            Try again
          </Button>
        </Alert>
      )}
      <div className="d-flex gap-2">
        <Button
          variant="outline-secondary"
          onClick={() => void task.pause()}
          disabled={snapshot.state !== 'running'}
        >
          Pause
        </Button>
        <Button
          variant="outline-primary"
          onClick={() => task.resume()}
          disabled={snapshot.state !== 'paused' && snapshot.state !== 'pausing'}
        >
          Resume
        </Button>
        <Button
          variant="outline-danger"
          onClick={() => void task.cancel()}
          disabled={snapshot.state !== 'running' && snapshot.state !== 'pausing'}
        >
          Cancel
        </Button>
      </div>
    </div>
  );
}
