import { useId } from 'react';
import Button from 'react-bootstrap/Button';
import { dicomwebAccess } from '../../lib/dicomweb';
import { useReportedAnnotations } from '../api/reported-annotations';
import {
  measurementsOf,
  measurementText,
  reportByline,
  reportName,
  type FrameToShow,
} from '../reported-measurements';

/** Reports with more measurements than this start folded. */
const OPEN_UP_TO = 12;

/**
 * "Measurements from reports": the Structured Reports found in the study that hold measurements,
 * each named with its author, date and count, and each measurement with a button that shows its
 * image. Nothing while there are none; a quiet line when they could not be read.
 */
export function ReportedMeasurementsPanel({
  itemUid,
  onShow,
  isDark = false,
}: {
  itemUid: string;
  onShow: (frame: FrameToShow) => void;
  isDark?: boolean;
}) {
  const titleId = useId();
  const reports = useReportedAnnotations(itemUid);
  // A share link shows the images alone (the query is not made).
  if (dicomwebAccess().isShared) {
    return null;
  }
  if (reports.isPending) {
    return (
      <p className="small text-body-secondary mt-3 mb-0" role="status">
        Looking for measurements in the study’s reports…
      </p>
    );
  }
  if (reports.isError) {
    return (
      <p className="small text-body-secondary mt-3 mb-0" role="status">
        The measurements of the study’s reports could not be loaded.
      </p>
    );
  }
  if (reports.data.length === 0) {
    return null;
  }
  return (
    <section
      className="reported-measurements mt-3"
      aria-labelledby={titleId}
      data-testid="reported-measurements"
    >
      <h2 id={titleId} className="h6 mb-1">
        Measurements from reports
      </h2>
      <p className="small text-body-secondary mb-2">
        Read-only, drawn dashed in blue: they come from the study’s files and cannot be moved or deleted.
      </p>
      {reports.data.map((report) => {
        const name = reportName(report);
        const byline = reportByline(report);
        const measurements = measurementsOf(report);
        const count = `${measurements.length} ${measurements.length === 1 ? 'measurement' : 'measurements'}`;
        return (
          <details
            key={report.sop_instance_uid}
            className="reported-report mb-2"
            open={measurements.length <= OPEN_UP_TO}
          >
            <summary className="small">
              <strong>{name}</strong>
              {byline && <span className="text-body-secondary"> {byline}</span>} · {count}
            </summary>
            <ul className="list-unstyled small mb-0 ms-3">
              {measurements.map((measurement) => (
                <li key={measurement.uid} className="d-flex align-items-center gap-2">
                  <span>{measurementText(measurement)}</span>
                  <Button
                    variant={isDark ? 'outline-light' : 'link'}
                    size="sm"
                    className="py-0"
                    aria-label={`Show ${measurementText(measurement)} from ${name} in the viewer`}
                    onClick={() => onShow(measurement.frame)}
                  >
                    Show
                  </Button>
                </li>
              ))}
            </ul>
          </details>
        );
      })}
    </section>
  );
}
