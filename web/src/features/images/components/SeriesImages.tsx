import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { PageSpinner } from '../../../components/PageSpinner';
import { useSeriesFrames } from '../api/series-frames';
import type { SeriesSummary } from '../api/study-series';
import { RenderedImage } from './RenderedImage';
import { seriesTitle } from './SeriesList';

/**
 * A series' pictures one under the other in a scrolling list, each fetched as it nears the view:
 * a series of 500 images loads the few on screen, not 500.
 */
export function SeriesImages({ studyUid, series }: { studyUid: string; series: SeriesSummary }) {
  const frames = useSeriesFrames(studyUid, series.uid);
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const title = seriesTitle(series);
  return (
    <section aria-labelledby="series-images-title">
      <h2 id="series-images-title" className="h5">
        {title}
      </h2>
      {frames.isPending && <PageSpinner label="Loading the images of this series…" />}
      {frames.isError && (
        <Alert variant="danger" className="d-flex flex-wrap align-items-center gap-2">
          <span>The images of this series could not be loaded.</span>
          <Button variant="outline-danger" size="sm" onClick={() => void frames.refetch()}>
            Retry
          </Button>
        </Alert>
      )}
      {frames.data?.length === 0 && <p className="text-body-secondary">This series has no images.</p>}
      {frames.data && frames.data.length > 0 && (
        // Focusable so that the keyboard can scroll it.
        <div
          ref={setScroller}
          className="series-images rounded"
          tabIndex={0}
          role="region"
          aria-label={`Images of ${title}`}
        >
          <ol className="list-unstyled mb-0">
            {frames.data.map((frame, index) => (
              <RenderedImage
                key={frame.key}
                frame={frame}
                label={`Image ${index + 1} of ${frames.data.length}`}
                scroller={scroller}
              />
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
