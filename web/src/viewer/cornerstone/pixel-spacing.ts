import type { DicomJsonDataset } from '@ra/shared';

const PIXEL_SPACING = '00280030';
const IMAGER_PIXEL_SPACING = '00181164';
const IMAGE_POSITION = '00200032';
const IMAGE_ORIENTATION = '00200037';

/**
 * What a length on an image is measured by: Pixel Spacing (0028,0030), in the patient; Imager
 * Pixel Spacing (0018,1164) alone, on the detector of a projection radiograph (so larger than
 * in the patient by the geometric magnification, PS3.3 C.8.11.4.1.1); or nothing, in pixels.
 */
export type SpacingSource = 'pixel' | 'imager' | 'none';

/** What the viewer's corner says of the lengths on the image. */
export const CALIBRATION_NOTES: Record<SpacingSource, string> = {
  pixel: 'Lengths: mm (Pixel Spacing)',
  imager: 'Lengths: mm at the detector (Imager Pixel Spacing)',
  none: 'Lengths: px (no pixel spacing)',
};

/** A row and a column spacing, both positive, or null when the attribute has none. */
export function spacingOf(dataset: DicomJsonDataset, tag: string): [number, number] | null {
  const values = (dataset[tag]?.Value ?? []).map(Number);
  const [row, column] = values;
  return values.length === 2 && row! > 0 && column! > 0 ? [row!, column!] : null;
}

export function spacingSourceOf(dataset: DicomJsonDataset): SpacingSource {
  if (spacingOf(dataset, PIXEL_SPACING)) {
    return 'pixel';
  }
  return spacingOf(dataset, IMAGER_PIXEL_SPACING) ? 'imager' : 'none';
}

/**
 * The dataset as the image loader is to read it so that the tools measure what the file allows.
 * Cornerstone's DICOMweb metadata reads Pixel Spacing only, and counts it only when the image has
 * a plane (Image Position and Orientation): a projection radiograph has none, and its lengths
 * were in millimetres labelled "px". So an image with a spacing but no plane is laid on the
 * default plane, and an image with only Imager Pixel Spacing is measured by it (the text then
 * says "at the detector", see `lengthTextLines`). The app's own copy of the metadata is unchanged.
 */
export function measurableDataset(dataset: DicomJsonDataset): DicomJsonDataset {
  const source = spacingSourceOf(dataset);
  const hasPlane =
    dataset[IMAGE_POSITION]?.Value?.length === 3 && dataset[IMAGE_ORIENTATION]?.Value?.length === 6;
  if (source === 'none' || (source === 'pixel' && hasPlane)) {
    return dataset;
  }
  const copy = { ...dataset };
  if (source === 'imager') {
    copy[PIXEL_SPACING] = { vr: 'DS', Value: spacingOf(dataset, IMAGER_PIXEL_SPACING)! };
  }
  if (!hasPlane) {
    copy[IMAGE_POSITION] = { vr: 'DS', Value: [0, 0, 0] };
    copy[IMAGE_ORIENTATION] = { vr: 'DS', Value: [1, 0, 0, 0, 1, 0] };
  }
  return copy;
}

/** Images measured at the detector, by their image ids. */
const atDetector = new Set<string>();

export function markMeasuredAtDetector(imageId: string): void {
  atDetector.add(imageId);
}

/** The unit of a length on `imageId` as drawn: "mm (detector)" when Imager Pixel Spacing gave the mm. */
export function lengthUnit(unit: string, imageId: string | undefined): string {
  return unit === 'mm' && imageId && atDetector.has(imageId) ? 'mm (detector)' : unit;
}
