import { CALIBRATION_NOTES, type SpacingSource } from '../cornerstone/pixel-spacing';
import type { StackSlice } from '../cornerstone/series-stack';
import { formatWindow, type Window } from '../cornerstone/window-presets';

export interface OverlayFacts {
  patientName: string;
  /**
   * Which study this is when two are compared, with its date ("Prior · Mar 12, 2025"); it then
   * stands first, in place of the date.
   */
  studyLabel?: string;
  studyDate: string;
  studyDescription: string;
  seriesTitle: string;
}

/** What is being looked at, in the viewport's corners, as reading rooms are used to. */
export function ViewportOverlay({
  facts,
  slice,
  index,
  count,
  window,
  zoom,
  spacing = slice?.spacing,
}: {
  facts: OverlayFacts;
  slice: StackSlice | undefined;
  index: number;
  count: number;
  window: Window | null;
  zoom: number;
  /** What lengths are measured by (a series' slice says it of itself). */
  spacing?: SpacingSource;
}) {
  return (
    <div className="viewer-overlay" aria-hidden="true">
      <div className="viewer-overlay-corner top-left">
        {facts.studyLabel && (
          <div className="viewer-overlay-study" data-testid="overlay-study">
            {facts.studyLabel}
          </div>
        )}
        <div>{facts.patientName}</div>
        {!facts.studyLabel && <div>{facts.studyDate}</div>}
        <div>{facts.studyDescription}</div>
      </div>
      <div className="viewer-overlay-corner top-right">
        <div>{facts.seriesTitle}</div>
      </div>
      <div className="viewer-overlay-corner bottom-left">
        <div data-testid="overlay-slice">
          Im {index + 1} / {count}
        </div>
        {slice && slice.sliceLocation !== null && <div>Loc {slice.sliceLocation.toFixed(1)} mm</div>}
        {slice && slice.frame > 1 && <div>Frame {slice.frame}</div>}
        {spacing && <div data-testid="overlay-calibration">{CALIBRATION_NOTES[spacing]}</div>}
      </div>
      <div className="viewer-overlay-corner bottom-right">
        <div data-testid="overlay-window">{window ? formatWindow(window) : ''}</div>
        <div data-testid="overlay-zoom">Zoom {zoom.toFixed(2)}×</div>
      </div>
    </div>
  );
}
