import Badge from 'react-bootstrap/Badge';
import type { StudySummary } from '@ra/shared';
import { counted } from '../lib/counted';
import { formatShortDate } from '../lib/dates';

/**
 * A DICOM study's badge, modalities, description, date and counts: compact (small, at most a
 * thumbnail wide) beside its preview in lists, full width in a page header.
 */
export function StudyFacts({
  study,
  isCompact = true,
  className = '',
}: {
  study: StudySummary;
  isCompact?: boolean;
  className?: string;
}) {
  const details = [
    study.study_date && formatShortDate(study.study_date),
    `${study.series_count} series`,
    counted(study.instance_count, 'instance', 'instances'),
  ].filter(Boolean);
  return (
    <div className={`${isCompact ? 'study-facts small' : ''} ${className}`.trim()}>
      <div>
        <Badge bg="info" text="dark" className="me-1">
          Study
        </Badge>
        <span>{study.modalities.join(', ')}</span>
      </div>
      {study.study_description && (
        <div className={isCompact ? 'text-truncate' : undefined} title={study.study_description}>
          {study.study_description}
        </div>
      )}
      <div className="text-body-secondary">{details.join(' · ')}</div>
    </div>
  );
}
