import ProgressBar from 'react-bootstrap/ProgressBar';
import type { ImageFailure } from '../cornerstone/image-failure';

function failedPhrase(failed: readonly ImageFailure[]): string {
  const isFetch = failed.includes('fetch');
  const isDecode = failed.includes('decode');
  return isFetch && isDecode ? 'fetched or decoded' : isFetch ? 'fetched' : 'decoded';
}

/**
 * How far the stack's images have come: a bar while some are still on their way, then, if some
 * failed, how many. A failed image is done with, so the count never waits for it.
 */
export function StackProgress({
  loaded,
  failed,
  count,
}: {
  loaded: number;
  /** Why each failed image failed. */
  failed: readonly ImageFailure[];
  count: number;
}) {
  const settled = loaded + failed.length;
  const failedText =
    failed.length > 0 ? `${failed.length} of ${count} images could not be ${failedPhrase(failed)}.` : null;
  if (settled < count) {
    return (
      <div className="mt-2" role="status" data-testid="viewer-progress">
        {/* A child bar takes the label itself: on the outer one it would name a box with no role. */}
        <ProgressBar>
          <ProgressBar
            isChild
            now={settled}
            max={count}
            label={`${settled} / ${count}`}
            visuallyHidden
            aria-label="Images loaded"
          />
        </ProgressBar>
        <small className="text-body-secondary">
          Loaded {loaded} of {count} images{failedText && ` · ${failedText}`}
        </small>
      </div>
    );
  }
  return failedText ? (
    <p className="mt-2 mb-0 small text-danger" role="status" data-testid="viewer-failed-count">
      {failedText}
    </p>
  ) : null;
}
