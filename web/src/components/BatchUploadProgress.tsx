import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { counted } from '../lib/counted';
import { megabytes } from '../lib/uploads/batch-progress';
import type { BatchSnapshot, UploadBatch } from '../lib/uploads/upload-batch';
import { statusOf } from '../lib/uploads/upload-task';

/** One progress bar for many files, with Pause / Resume / Cancel / Try again for all of them. */
export function BatchUploadProgress({ batch, snapshot }: { batch: UploadBatch; snapshot: BatchSnapshot }) {
  const status = statusOf(snapshot.state);
  return (
    <div className="mt-3" aria-live="polite">
      {snapshot.filesRemembered > 0 && (
        <p className="small mb-1">
          {counted(snapshot.filesRemembered, 'file', 'files')} already uploaded before will not be sent again.
        </p>
      )}
      {snapshot.filesResumed > 0 && (
        <p className="small mb-1">
          Resuming your earlier upload of {counted(snapshot.filesResumed, 'file', 'files')}.
        </p>
      )}
      <ProgressBar
        now={snapshot.percent}
        label={`${snapshot.percent}%`}
        animated={status === 'running'}
        variant={status === 'error' ? 'danger' : status === 'success' ? 'success' : undefined}
        aria-label="Upload progress"
      />
      <p className="small mt-1 mb-2">
        {snapshot.filesDone} of {counted(snapshot.filesTotal, 'file', 'files')} ·{' '}
        {megabytes(snapshot.bytesSent)} of {megabytes(snapshot.bytesTotal)} sent
        {snapshot.state === 'paused' && ' — paused'}
        {snapshot.state === 'pausing' && ' — pausing…'}
        {snapshot.state === 'canceling' && ' — canceling…'}
        {snapshot.state === 'canceled' && ' — canceled'}
      </p>
      {status === 'error' && (
        <Alert variant="danger" className="d-flex justify-content-between align-items-center">
          <span>{snapshot.error}</span>
          <Button variant="outline-danger" size="sm" onClick={() => batch.retry()}>
            Try again
          </Button>
        </Alert>
      )}
      {/* Once every file is on the server there is nothing left to pause or cancel. */}
      {status !== 'success' && (
        <div className="d-flex gap-2">
          <Button
            variant="outline-secondary"
            onClick={() => void batch.pause()}
            disabled={snapshot.state !== 'running'}
          >
            Pause
          </Button>
          <Button
            variant="outline-primary"
            onClick={() => batch.resume()}
            disabled={snapshot.state !== 'paused' && snapshot.state !== 'pausing'}
          >
            Resume
          </Button>
          <Button
            variant="outline-danger"
            onClick={() => void batch.cancel()}
            disabled={snapshot.state === 'canceling' || snapshot.state === 'canceled'}
          >
            Cancel
          </Button>
        </div>
      )}
    </div>
  );
}
