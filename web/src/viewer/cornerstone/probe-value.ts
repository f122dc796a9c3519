/**
 * What the probe reads at a point of a greyscale image: the modality value there (the stored value
 * through Rescale Slope and Intercept, unless the loader has applied them already) and its unit.
 *
 * Cornerstone3D's ProbeTool reads a stack's value at slice k of the current image's own
 * (one-slice) voxels, k being the image's place in the stack: past its end on any image but the
 * first, so it had no value and drew no text. The viewer reads the image itself instead.
 */
export interface ProbedImage {
  columns: number;
  rows: number;
  /** One value per pixel, row by row (null for colour images, which have no single value). */
  pixels: ArrayLike<number> | null;
  /** Whether the pixels hold modality values already (the loader's pre-scaling). */
  isPreScaled: boolean;
  slope: number;
  intercept: number;
}

/** The image's pixel under a point in image coordinates (0,0 is the top-left pixel's corner). */
export function pixelAt(point: readonly [number, number], image: Pick<ProbedImage, 'columns' | 'rows'>) {
  const column = Math.floor(point[0]);
  const row = Math.floor(point[1]);
  if (column < 0 || row < 0 || column >= image.columns || row >= image.rows) {
    return undefined;
  }
  return { column, row };
}

/** The modality value at a point; undefined outside the image or on a colour image. */
export function probeValue(point: readonly [number, number], image: ProbedImage): number | undefined {
  const pixel = pixelAt(point, image);
  if (!pixel || !image.pixels || image.pixels.length < image.columns * image.rows) {
    return undefined;
  }
  const stored = image.pixels[pixel.row * image.columns + pixel.column];
  if (stored === undefined || Number.isNaN(stored)) {
    return undefined;
  }
  return image.isPreScaled ? stored : stored * image.slope + image.intercept;
}

/**
 * The unit of a modality value: Hounsfield units for CT (its rescale gives them, PS3.3
 * C.8.2.1.1.7), else the file's Rescale Type when it gives one, else none (a stored value).
 */
export function probeUnit(modality: string, rescaleType?: string): string {
  if (modality === 'CT') {
    return 'HU';
  }
  return rescaleType?.trim() ?? '';
}

/** The probe's text: the value, rounded as a reading room shows it, with its unit. */
export function probeText(value: number, unit: string): string {
  const shown = Number.isInteger(value) ? String(value) : value.toFixed(Math.abs(value) >= 100 ? 0 : 2);
  return unit ? `${shown} ${unit}` : `${shown} (stored value)`;
}
