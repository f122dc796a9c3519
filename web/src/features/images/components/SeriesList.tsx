import { counted } from '../../../lib/counted';
import type { SeriesSummary } from '../api/study-series';
import { SeriesThumbnail } from './SeriesThumbnail';

/** What a series is called: its number and description, as far as the files give them. */
export function seriesTitle(series: SeriesSummary): string {
  const number = series.number === null ? 'Series' : `Series ${series.number}`;
  return series.description ? `${number}: ${series.description}` : number;
}

/** A study's series as buttons: thumbnail, modality, number, description and image count; the current one marked. */
export function SeriesList({
  studyUid,
  series,
  currentUid,
  onChoose,
}: {
  studyUid: string;
  series: SeriesSummary[];
  currentUid: string | null;
  onChoose: (seriesUid: string) => void;
}) {
  return (
    <ul className="list-group series-list">
      {series.map((item) => {
        const isCurrent = item.uid === currentUid;
        return (
          <li key={item.uid} className={`list-group-item p-0${isCurrent ? ' active' : ''}`}>
            <button
              type="button"
              className="series-button"
              aria-current={isCurrent ? 'true' : undefined}
              onClick={() => onChoose(item.uid)}
            >
              <SeriesThumbnail studyUid={studyUid} series={item} />
              <span className="text-break">
                <span className="d-block fw-semibold">
                  {item.modality || 'Unknown modality'}
                  {item.number !== null && ` · Series ${item.number}`}
                </span>
                {item.description && <span className="d-block">{item.description}</span>}
                {item.instanceCount !== null && (
                  <span className="d-block small">{counted(item.instanceCount, 'image', 'images')}</span>
                )}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
