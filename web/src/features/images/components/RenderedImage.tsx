import { useId, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Spinner from 'react-bootstrap/Spinner';
import { useHasBeenVisible } from '../../../lib/use-has-been-visible';
import { useObjectUrl } from '../../../lib/use-object-url';
import { useRenderedImage } from '../api/rendered-image';
import type { SeriesFrame } from '../api/series-frames';

// Fetch a screenful ahead of the scroll, so a picture is usually there by the time it is seen.
const PRELOAD_MARGIN = '100% 0px';

/** One entry of a series' image list, fetched when it nears `scroller`'s view. */
export function RenderedImage({
  frame,
  label,
  scroller,
}: {
  frame: SeriesFrame;
  label: string;
  scroller: HTMLElement | null;
}) {
  const captionId = useId();
  const [entry, setEntry] = useState<HTMLLIElement | null>(null);
  // Before the list's scroller is known, its entries would be watched against the whole window.
  const isNear = useHasBeenVisible(scroller && entry, scroller, PRELOAD_MARGIN);
  const image = useRenderedImage(frame.renderedPath, isNear);
  const url = useObjectUrl(image.data ?? null);
  return (
    <li ref={setEntry} className="series-image">
      <figure className="mb-0" aria-labelledby={captionId}>
        <figcaption id={captionId} className="small px-2 py-1">
          {label}
        </figcaption>
        {url ? (
          <img src={url} alt={label} className="series-image-full" />
        ) : (
          <div
            className="series-image-placeholder"
            style={{ aspectRatio: frame.aspectRatio ?? 1 }}
            role={image.isError ? 'alert' : undefined}
          >
            {image.isError && (
              <>
                <span>This image could not be loaded.</span>
                <Button
                  variant="outline-light"
                  size="sm"
                  className="mt-2"
                  onClick={() => void image.refetch()}
                >
                  Retry
                </Button>
              </>
            )}
            {!image.isError && isNear && (
              <span role="status">
                <Spinner animation="border" size="sm" aria-hidden="true" />
                <span className="visually-hidden">Loading {label}…</span>
              </span>
            )}
          </div>
        )}
      </figure>
    </li>
  );
}
