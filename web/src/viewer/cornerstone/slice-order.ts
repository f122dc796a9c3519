import { DICOM_TAGS, firstValue, type DicomJsonDataset } from '@ra/shared';
import { integerValue } from '../../lib/dicomweb';
import { spacingSourceOf, type SpacingSource } from './pixel-spacing';

const IMAGE_POSITION = '00200032';
const IMAGE_ORIENTATION = '00200037';
const SLICE_LOCATION = '00201041';

/** One image of a stack: a frame of an instance, with what the overlay and annotations need. */
export interface StackSlice {
  imageId: string;
  sopInstanceUid: string;
  /** 1-based, as in WADO-RS frame URLs. */
  frame: number;
  instanceNumber: number | null;
  /** Millimetres along the stack's normal (Slice Location, else from Image Position); null when unknown. */
  sliceLocation: number | null;
  /** What its lengths are measured by. */
  spacing: SpacingSource;
}

function numbers(dataset: DicomJsonDataset, tag: string): number[] {
  return (dataset[tag]?.Value ?? []).map(Number).filter(Number.isFinite);
}

/** Where a slice lies along the normal of its orientation (the dot product of position and normal). */
function positionAlongNormal(dataset: DicomJsonDataset): number | null {
  const position = numbers(dataset, IMAGE_POSITION);
  const orientation = numbers(dataset, IMAGE_ORIENTATION);
  if (position.length !== 3 || orientation.length !== 6) {
    return null;
  }
  const [rx, ry, rz, cx, cy, cz] = orientation as [number, number, number, number, number, number];
  const normal = [ry * cz - rz * cy, rz * cx - rx * cz, rx * cy - ry * cx];
  return position.reduce((sum, value, axis) => sum + value * normal[axis]!, 0);
}

/**
 * A series' images in reading order: instances along their normal when every one has a position
 * (else by Instance Number), each multi-frame instance expanded into its frames.
 */
export function orderSlices(
  datasets: DicomJsonDataset[],
  imageIdOf: (sopInstanceUid: string, frame: number) => string,
): StackSlice[] {
  const instances = datasets
    .filter((dataset) => integerValue(dataset, DICOM_TAGS.rows) !== null)
    .map((dataset) => ({
      dataset,
      sopInstanceUid: firstValue(dataset, DICOM_TAGS.sopInstanceUid),
      instanceNumber: integerValue(dataset, DICOM_TAGS.instanceNumber),
      frames: Math.max(1, integerValue(dataset, DICOM_TAGS.numberOfFrames) ?? 1),
      position: positionAlongNormal(dataset),
      sliceLocation: numbers(dataset, SLICE_LOCATION)[0] ?? null,
    }));
  const byPosition = instances.every((instance) => instance.position !== null);
  instances.sort((a, b) =>
    byPosition
      ? a.position! - b.position!
      : (a.instanceNumber ?? Number.MAX_SAFE_INTEGER) - (b.instanceNumber ?? Number.MAX_SAFE_INTEGER),
  );
  return instances.flatMap((instance) =>
    Array.from({ length: instance.frames }, (_, index) => ({
      imageId: imageIdOf(instance.sopInstanceUid, index + 1),
      sopInstanceUid: instance.sopInstanceUid,
      frame: index + 1,
      instanceNumber: instance.instanceNumber,
      sliceLocation: instance.frames > 1 ? null : (instance.sliceLocation ?? instance.position),
      spacing: spacingSourceOf(instance.dataset),
    })),
  );
}
