import { useMemo } from 'react';
import Button from 'react-bootstrap/Button';
import type { DicomJsonDataset } from '@ra/shared';
import { mprEligibility } from './mpr-eligibility';

/**
 * The viewer's "MPR" button: opens the series in three planes when it makes a volume; else
 * disabled, with the reason as its tooltip (on a wrapper, since a disabled button gets no pointer
 * events) and as its description for screen readers.
 */
export function MprButton({
  modality,
  datasets,
  onOpen,
}: {
  modality: string;
  /** The series' metadata; undefined while it loads. */
  datasets: readonly DicomJsonDataset[] | undefined;
  onOpen: () => void;
}) {
  const eligibility = useMemo(
    () =>
      datasets
        ? mprEligibility({ modality, datasets })
        : { ok: false as const, reason: 'Reading the series…' },
    [modality, datasets],
  );
  if (eligibility.ok) {
    return (
      <Button
        size="sm"
        variant="outline-light"
        onClick={onOpen}
        title="Multiplanar reconstruction: axial, sagittal and coronal planes"
      >
        MPR
      </Button>
    );
  }
  return (
    <span className="d-inline-block" title={eligibility.reason} data-testid="mpr-unavailable">
      <Button
        size="sm"
        variant="outline-light"
        disabled
        aria-describedby="mpr-unavailable-reason"
        style={{ pointerEvents: 'none' }}
      >
        MPR
      </Button>
      <span id="mpr-unavailable-reason" className="visually-hidden">
        {eligibility.reason}
      </span>
    </span>
  );
}
