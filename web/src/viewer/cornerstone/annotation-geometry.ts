import type { AnnotationKind } from '@ra/shared';

/** `[column, row]` in the frame's pixels. */
export type ImagePoint = [number, number];

/*
 * The server keeps each kind's defining points (docs/api.md §15); Cornerstone's tools keep
 * handles of their own: an ellipse by the ends of its axes (top, bottom, left, right), a rectangle
 * by its four corners (top left, top right, bottom left, bottom right), an arrow from its head.
 */

function bounds(points: ImagePoint[]) {
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  return { left: Math.min(...xs), right: Math.max(...xs), top: Math.min(...ys), bottom: Math.max(...ys) };
}

/** The points the server keeps for a tool's handles. */
export function storedPoints(kind: AnnotationKind, handles: ImagePoint[]): ImagePoint[] {
  switch (kind) {
    case 'ellipse':
    case 'rectangle': {
      const box = bounds(handles);
      return [
        [box.left, box.top],
        [box.right, box.bottom],
      ];
    }
    case 'arrow':
      // Tail, then head.
      return [handles[1]!, handles[0]!];
    default:
      return handles;
  }
}

/** A tool's handles for the points the server keeps. */
export function handlePoints(kind: AnnotationKind, points: ImagePoint[]): ImagePoint[] {
  switch (kind) {
    case 'ellipse': {
      const box = bounds(points);
      const centreX = (box.left + box.right) / 2;
      const centreY = (box.top + box.bottom) / 2;
      return [
        [centreX, box.top],
        [centreX, box.bottom],
        [box.left, centreY],
        [box.right, centreY],
      ];
    }
    case 'rectangle': {
      const box = bounds(points);
      return [
        [box.left, box.top],
        [box.right, box.top],
        [box.left, box.bottom],
        [box.right, box.bottom],
      ];
    }
    case 'arrow':
      return [points[1]!, points[0]!];
    default:
      return points;
  }
}
