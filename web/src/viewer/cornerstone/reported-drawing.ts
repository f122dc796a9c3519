import type { StackViewport } from '@cornerstonejs/core';
import { annotation as annotationState } from '@cornerstonejs/tools';
import type { ReportedMeasurement } from '../reported-measurements';
import { toToolAnnotation, type AnnotationTargets } from './annotation-sync';

/*
 * A report's measurements on the stack: locked (they cannot be moved, edited or deleted), drawn
 * dashed in a colour of their own so that they are not taken for anyone's annotations, and never
 * saved (the annotation sync leaves locked annotations alone).
 */

export const REPORTED_STYLE = {
  color: 'rgb(90, 200, 250)',
  colorLocked: 'rgb(90, 200, 250)',
  lineDash: '6,3',
  lineDashLocked: '6,3',
  textBoxColorLocked: 'rgb(90, 200, 250)',
} as const;

/** Draws the measurements that fall on `targets`; returns the ids of those drawn. */
export function showReported(
  measurements: readonly ReportedMeasurement[],
  targets: AnnotationTargets,
  viewport: StackViewport,
): string[] {
  const drawn: string[] = [];
  for (const measurement of measurements) {
    const imageId = targets.imageIdOf(measurement.frame);
    if (!imageId || annotationState.state.getAnnotation(measurement.uid)) {
      continue;
    }
    const tool = toToolAnnotation(
      { uid: measurement.uid, kind: measurement.kind, data: measurement.data, label: measurement.shownLabel },
      imageId,
      viewport,
      false,
    );
    if (tool) {
      annotationState.state.addAnnotation(tool, viewport.element);
      annotationState.locking.setAnnotationLocked(measurement.uid, true);
      annotationState.config.style.setAnnotationStyles(measurement.uid, REPORTED_STYLE);
      drawn.push(measurement.uid);
    }
  }
  return drawn;
}

/** Takes the measurements drawn by showReported off the stack again (not deleting anything). */
export function hideReported(uids: readonly string[]): void {
  for (const uid of uids) {
    if (annotationState.state.getAnnotation(uid)) {
      annotationState.locking.setAnnotationLocked(uid, false);
      annotationState.state.removeAnnotation(uid);
    }
  }
}
