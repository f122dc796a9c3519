/** Pure geometry of the MPR view: what a plane of the volume spans, and where the patient faces. */

export type Vector3 = readonly [number, number, number];

/** A volume as a box of voxels: their count and size along its three axes, and those axes' directions. */
export interface VolumeBox {
  dimensions: Vector3;
  /** Millimetres per voxel along each axis. */
  spacing: Vector3;
  /** The three axes' unit vectors in patient coordinates, one after the other (9 numbers). */
  direction: readonly number[];
}

const axisOf = (direction: readonly number[], axis: number): Vector3 => [
  direction[axis * 3]!,
  direction[axis * 3 + 1]!,
  direction[axis * 3 + 2]!,
];

function dot(a: Vector3, b: Vector3): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/**
 * The length in mm of the volume's box, voxel edge to voxel edge, seen along `unit` (a unit vector
 * in patient coordinates): the width of a plane's picture when `unit` points to the screen's right,
 * its height when it points up.
 */
export function extentAlong(box: VolumeBox, unit: Vector3): number {
  return [0, 1, 2].reduce(
    (sum, axis) =>
      sum + Math.abs(dot(axisOf(box.direction, axis), unit)) * box.dimensions[axis]! * box.spacing[axis]!,
    0,
  );
}

/**
 * Where a direction in patient coordinates (DICOM's LPS: +x left, +y posterior, +z superior)
 * points, as the letters radiologists write at an image's edges: its main component first, and a
 * second one when the direction is oblique by more than about 25° ("SA": mostly superior, somewhat
 * anterior).
 */
export function orientationLetters(vector: Vector3): string {
  const letters: [string, string][] = [
    ['L', 'R'],
    ['P', 'A'],
    ['S', 'I'],
  ];
  const length = Math.hypot(...vector) || 1;
  return [0, 1, 2]
    .map((axis) => ({ axis, share: vector[axis]! / length }))
    .filter(({ share }) => Math.abs(share) > 0.42)
    .sort((a, b) => Math.abs(b.share) - Math.abs(a.share))
    .map(({ axis, share }) => letters[axis]![share > 0 ? 0 : 1])
    .join('');
}

/** The screen's right in patient coordinates, from a camera's up and its normal (out of the screen's back). */
export function viewRightOf(viewUp: Vector3, viewPlaneNormal: Vector3): Vector3 {
  return [
    viewUp[1] * viewPlaneNormal[2] - viewUp[2] * viewPlaneNormal[1],
    viewUp[2] * viewPlaneNormal[0] - viewUp[0] * viewPlaneNormal[2],
    viewUp[0] * viewPlaneNormal[1] - viewUp[1] * viewPlaneNormal[0],
  ];
}

/** What a plane shows: its picture's size in mm and the patient's sides at its right and top. */
export interface PlaneFacts {
  widthMm: number;
  heightMm: number;
  right: string;
  top: string;
}

export function planeFacts(box: VolumeBox, viewUp: Vector3, viewPlaneNormal: Vector3): PlaneFacts {
  const right = viewRightOf(viewUp, viewPlaneNormal);
  return {
    widthMm: extentAlong(box, right),
    heightMm: extentAlong(box, viewUp),
    right: orientationLetters(right),
    top: orientationLetters(viewUp),
  };
}

/** Slab thickness in mm: 0 is a single thin plane; the control goes up to this. */
export const MAX_SLAB_MM = 50;

/** A slab of the chosen thickness, clamped to 0…MAX_SLAB_MM (anything unreadable is thin). */
export function clampSlab(value: number): number {
  return Number.isFinite(value) ? Math.min(MAX_SLAB_MM, Math.max(0, value)) : 0;
}
