import { utilities, type StackViewport } from '@cornerstonejs/core';

/**
 * How many screen (CSS) pixels one pixel of the image takes: 1 is the image at its true size,
 * whatever the renderer, the fit or the viewport's size. Cornerstone's own zoom is relative to the
 * camera it fitted first, so the same fit could read 1.00× or 1.25×; this reads the same for both.
 * Undefined until an image is shown.
 */
export function displayScaleOf(stack: StackViewport): number | undefined {
  const imageId = stack.getCurrentImageId();
  if (!imageId || !stack.getCornerstoneImage()) {
    return undefined;
  }
  const origin = utilities.imageToWorldCoords(imageId, [0, 0]);
  const nextColumn = utilities.imageToWorldCoords(imageId, [1, 0]);
  if (!origin || !nextColumn) {
    return undefined;
  }
  const [ax, ay] = stack.worldToCanvas(origin);
  const [bx, by] = stack.worldToCanvas(nextColumn);
  const scale = Math.hypot(bx - ax, by - ay);
  return Number.isFinite(scale) && scale > 0 ? scale : undefined;
}
