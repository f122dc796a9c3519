import ProgressBar from 'react-bootstrap/ProgressBar';
import { megabytes } from '../lib/uploads/batch-progress';
import { statusOf, type UploadSnapshot, type UploadTask } from '../lib/uploads/upload-task';
import { stateSuffix, UploadControls } from './UploadControls';

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
        {stateSuffix(snapshot.state)}
      </p>
      <UploadControls
        state={snapshot.state}
        error={snapshot.error}
        canCancel={snapshot.state === 'running' || snapshot.state === 'pausing'}
        onPause={() => void task.pause()}
        onResume={() => task.resume()}
        onCancel={() => void task.cancel()}
        onRetry={() => task.retry()}
      />
    </div>
  );
}
