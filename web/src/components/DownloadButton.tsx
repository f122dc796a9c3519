import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import ProgressBar from 'react-bootstrap/ProgressBar';
import { ApiError } from '../lib/api-client';
import {
  diskSink,
  downloadZip,
  memorySink,
  type DownloadProgress,
  type ZipRequest,
} from '../lib/download-zip';
import { megabytes } from '../lib/uploads/batch-progress';

type State =
  | { kind: 'idle' }
  | { kind: 'running'; progress: DownloadProgress }
  | { kind: 'done' }
  | { kind: 'failed'; message: string };

const ITEM_NOT_FOUND = 'This item does not exist or you may not download it.';

function messageOf(error: unknown, notFoundMessage: string): string {
  if (error instanceof ApiError) {
    return error.status === 404 ? notFoundMessage : error.message;
  }
  return 'The download failed. Check your connection and try again.';
}

/**
 * A button that downloads a ZIP of the archive (an item, the patient's whole archive, or a share
 * link's item) with the signed-in user's token or the link's code, showing the bytes received (and the percentage when the size is known),
 * with Cancel; errors are shown where the button is.
 */
export function DownloadButton({
  path,
  label,
  fallbackName,
  variant = 'outline-primary',
  className,
  request,
  notFoundMessage = ITEM_NOT_FOUND,
}: {
  path: string;
  /** For a share link's ZIP: no bearer token, and the link's access code. */
  request?: ZipRequest;
  /** What a 404 means where the button is. */
  notFoundMessage?: string;
  label: string;
  fallbackName: string;
  variant?: string;
  className?: string;
}) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  // Leaving the page stops a download still running.
  useEffect(() => () => controller.current?.abort(), []);

  const start = async () => {
    let sink;
    try {
      // Asked first, while the click still counts as the user's: where to write, when the browser can.
      sink = (await diskSink(fallbackName)) ?? memorySink();
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') {
        return;
      }
      sink = memorySink();
    }
    const abort = new AbortController();
    controller.current = abort;
    setState({ kind: 'running', progress: { received: 0, total: null } });
    try {
      await downloadZip(path, sink, {
        fallbackName,
        request,
        signal: abort.signal,
        onProgress: (progress) => setState({ kind: 'running', progress }),
      });
      setState({ kind: 'done' });
    } catch (error) {
      setState(
        abort.signal.aborted
          ? { kind: 'idle' }
          : { kind: 'failed', message: messageOf(error, notFoundMessage) },
      );
    } finally {
      controller.current = null;
    }
  };

  const progress = state.kind === 'running' ? state.progress : null;
  const percent =
    progress && progress.total ? Math.min(100, Math.floor((progress.received / progress.total) * 100)) : null;
  return (
    <div className={className}>
      <Button variant={variant} onClick={() => void start()} disabled={state.kind === 'running'}>
        {state.kind === 'running' ? 'Downloading…' : label}
      </Button>
      {progress && (
        <div className="mt-2">
          {/* The inner bar is the element with role progressbar: it carries the name and the value text. */}
          <ProgressBar>
            <ProgressBar
              isChild
              now={percent ?? 100}
              label={percent === null ? undefined : `${percent}%`}
              animated
              striped={percent === null}
              aria-label={`${label} progress`}
              aria-valuetext={
                percent === null ? `${megabytes(progress.received)} received` : `${percent}% received`
              }
            />
          </ProgressBar>
          <p className="small mt-1 mb-1">
            {megabytes(progress.received)}
            {progress.total ? ` of ${megabytes(progress.total)}` : ''} received
          </p>
          <Button variant="link" size="sm" className="p-0" onClick={() => controller.current?.abort()}>
            Cancel download
          </Button>
        </div>
      )}
      <div aria-live="polite">
        {state.kind === 'running' && <span className="visually-hidden">Download started.</span>}
        {state.kind === 'done' && <p className="small text-success mt-2 mb-0">Download complete.</p>}
      </div>
      {state.kind === 'failed' && (
        <Alert variant="danger" className="mt-2 mb-0" role="alert">
          {state.message}
        </Alert>
      )}
    </div>
  );
}
