import Spinner from 'react-bootstrap/Spinner';
import { useObjectUrl } from '../../../lib/use-object-url';
import { isNotFound } from '../../../lib/dicomweb';
import type { SeriesSummary } from '../api/study-series';
import { useSeriesThumbnail } from '../api/series-thumbnail';

/** A series' thumbnail inside its button (so no alt text of its own), or its modality and why there is none. */
export function SeriesThumbnail({ studyUid, series }: { studyUid: string; series: SeriesSummary }) {
  const thumbnail = useSeriesThumbnail(studyUid, series.uid);
  const url = useObjectUrl(thumbnail.data ?? null);
  if (thumbnail.isError) {
    return (
      <span className="series-thumbnail series-thumbnail-empty">
        <span className="fw-semibold">{series.modality || 'DICOM'}</span>
        <span className="small">
          {isNotFound(thumbnail.error) ? 'No preview' : 'Preview could not be loaded'}
        </span>
      </span>
    );
  }
  if (!url) {
    return (
      <span className="series-thumbnail series-thumbnail-empty">
        <Spinner animation="border" size="sm" aria-hidden="true" />
        <span className="visually-hidden">Loading the preview…</span>
      </span>
    );
  }
  return <img src={url} alt="" className="series-thumbnail" />;
}
