import Button from 'react-bootstrap/Button';
import { ToolbarIcon } from '../../../viewer/components/ToolbarIcon';

/** The reading room's switch between the study's own hanging and the study beside its prior. */
export function ComparePriorButton({
  priorLabel,
  isOn,
  onToggle,
}: {
  /** The prior, as its viewport names it ("Prior · Mar 12, 2025"). */
  priorLabel: string;
  isOn: boolean;
  onToggle: () => void;
}) {
  return (
    <Button
      size="sm"
      variant={isOn ? 'info' : 'outline-light'}
      className="d-inline-flex align-items-center gap-1"
      aria-pressed={isOn}
      title={`Compare with prior: this study beside the patient's earlier one (${priorLabel})`}
      onClick={onToggle}
    >
      <ToolbarIcon name="compare" />
      Compare with prior
    </Button>
  );
}
