import ProgressBar from 'react-bootstrap/ProgressBar';
import { counted } from '../lib/counted';
import { megabytes } from '../lib/uploads/batch-progress';
import type { BatchSnapshot, UploadBatch } from '../lib/uploads/upload-batch';
import { statusOf } from '../lib/uploads/upload-task';
import { stateSuffix, UploadControls } from './UploadControls';

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
        {stateSuffix(snapshot.state)}
      </p>
      {/* Once every file is on the server there is nothing left to pause or cancel. */}
      {status !== 'success' && (
        <UploadControls
          state={snapshot.state}
          error={snapshot.error}
          canCancel={snapshot.state !== 'canceling' && snapshot.state !== 'canceled'}
          onPause={() => void batch.pause()}
          onResume={() => batch.resume()}
          onCancel={() => void batch.cancel()}
          onRetry={() => batch.retry()}
        />
      )}
    </div>
  );
}
