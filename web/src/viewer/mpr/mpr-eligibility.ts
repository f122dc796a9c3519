import { DICOM_TAGS, firstValue, type DicomJsonDataset } from '@ra/shared';

const IMAGE_POSITION = '00200032';
const IMAGE_ORIENTATION = '00200037';
const FRAME_OF_REFERENCE = '00200052';
const PIXEL_SPACING = '00280030';
const SAMPLES_PER_PIXEL = '00280002';
const BITS_ALLOCATED = '00280100';
const RESCALE_SLOPE = '00281053';

/** Fewer images than this make a reformat too coarse to read (and a sagittal a few lines high). */
export const MPR_MIN_SLICES = 10;
/** The largest volume built in the tab: 512 × 512 × 1000 voxels (500 MB at 16 bits). */
export const MPR_MAX_VOXELS = 512 * 512 * 1000;
/**
 * The most memory a volume may take once decoded: its images live in the viewer's image cache
 * (768 MiB, `IMAGE_CACHE_BYTES`), which must keep some room for the rest.
 */
export const MPR_MAX_BYTES = 640 * 1024 ** 2;
/** Gaps between slices may differ from their median by this share (or by 0.01 mm) and no more. */
export const MPR_SPACING_TOLERANCE = 0.05;
/** Row and column directions of two images may differ by this much (cosine units, about 0.5°). */
const ORIENTATION_TOLERANCE = 0.01;

/** A series as the MPR button sees it: its modality and its instances' metadata (DICOM JSON). */
export interface MprSeries {
  modality: string;
  datasets: readonly DicomJsonDataset[];
}

/** The volume a series makes: voxels along rows, columns and slices, and their size in mm. */
export interface MprGeometry {
  columns: number;
  rows: number;
  slices: number;
  /** Millimetres between voxel centres along a row, down a column, and between slices. */
  spacing: [number, number, number];
  voxels: number;
  /** Bytes of the decoded volume (2 per voxel, 4 when the rescale makes fractions). */
  bytes: number;
}

export type MprEligibility = { ok: true; geometry: MprGeometry } | { ok: false; reason: string };

type Vector = [number, number, number];

function numbers(dataset: DicomJsonDataset, tag: string): number[] {
  return (dataset[tag]?.Value ?? []).map(Number).filter(Number.isFinite);
}

function integer(dataset: DicomJsonDataset, tag: string): number | null {
  const value = Number(dataset[tag]?.Value?.[0]);
  return Number.isInteger(value) ? value : null;
}

export function cross(a: Vector, b: Vector): Vector {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

export function dot(a: readonly number[], b: readonly number[]): number {
  return a.reduce((sum, value, axis) => sum + value * b[axis]!, 0);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const refuse = (reason: string): MprEligibility => ({ ok: false, reason });

/**
 * Whether a series can be reformatted into axial, sagittal and coronal planes, and the volume it
 * makes; else why not, in words for the user. A volume needs single-frame CT or MR images that all
 * lie in one frame of reference, share their size, pixel spacing and orientation, and are stacked
 * along their normal at even steps (no gantry tilt, no repeated positions), within the tab's memory.
 */
export function mprEligibility(series: MprSeries): MprEligibility {
  const modality = series.modality.toUpperCase();
  if (modality !== 'CT' && modality !== 'MR') {
    return refuse(`MPR is for CT and MR series; this one is ${series.modality || 'of no modality'}.`);
  }
  const images = series.datasets.filter((dataset) => integer(dataset, DICOM_TAGS.rows) !== null);
  if (images.some((dataset) => (integer(dataset, DICOM_TAGS.numberOfFrames) ?? 1) > 1)) {
    return refuse('MPR reads series of single-frame images; this one has multi-frame images.');
  }
  if (images.length < MPR_MIN_SLICES) {
    return refuse(`MPR needs at least ${MPR_MIN_SLICES} images; this series has ${images.length}.`);
  }
  if (images.some((dataset) => (integer(dataset, SAMPLES_PER_PIXEL) ?? 1) !== 1)) {
    return refuse('MPR reads greyscale images; this series has colour ones.');
  }
  const first = images[0]!;
  const rows = integer(first, DICOM_TAGS.rows)!;
  const columns = integer(first, DICOM_TAGS.columns) ?? 0;
  const bits = integer(first, BITS_ALLOCATED) ?? 16;
  if (
    images.some(
      (dataset) =>
        integer(dataset, DICOM_TAGS.rows) !== rows ||
        integer(dataset, DICOM_TAGS.columns) !== columns ||
        (integer(dataset, BITS_ALLOCATED) ?? 16) !== bits,
    )
  ) {
    return refuse('The images of this series differ in size.');
  }
  const frames = new Set(images.map((dataset) => firstValue(dataset, FRAME_OF_REFERENCE)));
  if (frames.has('')) {
    return refuse('Some images of this series have no frame of reference.');
  }
  if (frames.size > 1) {
    return refuse('The images of this series lie in more than one frame of reference.');
  }
  const planes = images.map((dataset) => ({
    position: numbers(dataset, IMAGE_POSITION),
    orientation: numbers(dataset, IMAGE_ORIENTATION),
    spacing: numbers(dataset, PIXEL_SPACING),
  }));
  if (planes.some((plane) => plane.position.length !== 3 || plane.orientation.length !== 6)) {
    return refuse('Some images of this series have no position or orientation in the patient.');
  }
  const [rowSpacing, columnSpacing] = planes[0]!.spacing;
  if (
    !(rowSpacing! > 0 && columnSpacing! > 0) ||
    planes.some(
      (plane) =>
        plane.spacing.length !== 2 ||
        Math.abs(plane.spacing[0]! - rowSpacing!) > 1e-4 ||
        Math.abs(plane.spacing[1]! - columnSpacing!) > 1e-4,
    )
  ) {
    return refuse('The images of this series have no pixel spacing, or not all the same one.');
  }
  const orientation = planes[0]!.orientation;
  if (
    planes.some((plane) =>
      plane.orientation.some((value, index) => Math.abs(value - orientation[index]!) > ORIENTATION_TOLERANCE),
    )
  ) {
    return refuse('The images of this series are not all in the same orientation.');
  }
  const rowDirection = orientation.slice(0, 3) as Vector;
  const columnDirection = orientation.slice(3, 6) as Vector;
  const normal = cross(rowDirection, columnDirection);
  const along = planes.map((plane) => dot(plane.position, normal)).sort((a, b) => a - b);
  const gaps = along.slice(1).map((position, index) => position - along[index]!);
  const step = median(gaps);
  if (gaps.some((gap) => gap < 1e-3)) {
    return refuse('Some images of this series lie at the same position (several phases or echoes?).');
  }
  if (gaps.some((gap) => Math.abs(gap - step) > Math.max(0.01, step * MPR_SPACING_TOLERANCE))) {
    return refuse('The images of this series are not evenly spaced.');
  }
  // The images must be stacked straight along their normal: a tilted gantry shifts each one in
  // its own plane, and a volume built as a box would misplace them.
  const byPosition = [...planes].sort((a, b) => dot(a.position, normal) - dot(b.position, normal));
  const start = byPosition[0]!.position;
  const shift = byPosition.reduce((largest, plane) => {
    const offset = plane.position.map((value, axis) => value - start[axis]!);
    return Math.max(largest, Math.abs(dot(offset, rowDirection)), Math.abs(dot(offset, columnDirection)));
  }, 0);
  if (shift > Math.min(rowSpacing!, columnSpacing!) / 2) {
    return refuse('The images of this series are not stacked straight (a tilted gantry?).');
  }
  const voxels = rows * columns * images.length;
  if (voxels > MPR_MAX_VOXELS) {
    return refuse(
      `This series is too large to reconstruct in the browser: ${columns} × ${rows} × ${images.length} voxels, ` +
        `where the limit is 512 × 512 × 1000.`,
    );
  }
  // Cornerstone decodes into floats when the rescale makes fractions.
  const isFractional = images.some((dataset) => !Number.isInteger(numbers(dataset, RESCALE_SLOPE)[0] ?? 1));
  const bytes = voxels * (bits > 16 || isFractional ? 4 : bits <= 8 ? 1 : 2);
  if (bytes > MPR_MAX_BYTES) {
    return refuse(
      `This series is too large to reconstruct in the browser: ${Math.round(bytes / 1024 ** 2)} MiB decoded, ` +
        `where the limit is ${MPR_MAX_BYTES / 1024 ** 2} MiB.`,
    );
  }
  return {
    ok: true,
    geometry: {
      columns,
      rows,
      slices: images.length,
      spacing: [columnSpacing!, rowSpacing!, step],
      voxels,
      bytes,
    },
  };
}
