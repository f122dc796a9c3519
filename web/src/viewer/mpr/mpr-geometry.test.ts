import { describe, expect, it } from 'vitest';
import {
  clampSlab,
  extentAlong,
  orientationLetters,
  planeFacts,
  viewRightOf,
  type VolumeBox,
} from './mpr-geometry';

/** 64 × 64 axial images of 0.5 mm, 40 slices 1.25 mm apart: 32 × 32 × 50 mm. */
const AXIAL_STACK: VolumeBox = {
  dimensions: [64, 64, 40],
  spacing: [0.5, 0.5, 1.25],
  direction: [1, 0, 0, 0, 1, 0, 0, 0, 1],
};

// The cameras of Cornerstone's three planes (its MPR_CAMERA_VALUES): up and normal.
const AXIAL = { up: [0, -1, 0], normal: [0, 0, -1] } as const;
const SAGITTAL = { up: [0, 0, 1], normal: [1, 0, 0] } as const;
const CORONAL = { up: [0, 0, 1], normal: [0, -1, 0] } as const;

describe('planeFacts', () => {
  it('gives each plane of an axial stack its size in mm and the patient sides at its right and top', () => {
    expect(planeFacts(AXIAL_STACK, AXIAL.up, AXIAL.normal)).toEqual({
      widthMm: 32,
      heightMm: 32,
      right: 'L',
      top: 'A',
    });
    // The sagittal and coronal planes are as tall as the slices times their spacing.
    expect(planeFacts(AXIAL_STACK, SAGITTAL.up, SAGITTAL.normal)).toEqual({
      widthMm: 32,
      heightMm: 50,
      right: 'P',
      top: 'S',
    });
    expect(planeFacts(AXIAL_STACK, CORONAL.up, CORONAL.normal)).toEqual({
      widthMm: 32,
      heightMm: 50,
      right: 'L',
      top: 'S',
    });
  });

  it('reads a sagittal acquisition in its own axes: the slices then run left to right', () => {
    // Rows along y (posterior), columns down (−z), slices along x: 3 mm apart.
    const sagittalStack: VolumeBox = {
      dimensions: [256, 200, 30],
      spacing: [1, 1.2, 3],
      direction: [0, 1, 0, 0, 0, -1, 1, 0, 0],
    };
    const coronal = planeFacts(sagittalStack, CORONAL.up, CORONAL.normal);
    expect(coronal.widthMm).toBeCloseTo(90, 9);
    expect(coronal.heightMm).toBeCloseTo(240, 9);
  });

  it('projects an oblique box onto the plane', () => {
    const c = Math.SQRT1_2;
    const oblique: VolumeBox = {
      dimensions: [10, 10, 10],
      spacing: [1, 1, 1],
      direction: [c, c, 0, -c, c, 0, 0, 0, 1],
    };
    expect(extentAlong(oblique, [1, 0, 0])).toBeCloseTo(20 * c, 9);
    expect(extentAlong(oblique, [0, 0, 1])).toBeCloseTo(10, 9);
  });
});

describe('orientationLetters', () => {
  it('names the six directions of the patient', () => {
    expect(
      [
        [1, 0, 0],
        [-1, 0, 0],
        [0, 1, 0],
        [0, -1, 0],
        [0, 0, 1],
        [0, 0, -1],
      ].map((vector) => orientationLetters(vector as [number, number, number])),
    ).toEqual(['L', 'R', 'P', 'A', 'S', 'I']);
  });

  it('adds the second direction of an oblique one, main direction first', () => {
    expect(orientationLetters([0, -0.5, 0.866])).toBe('SA');
    expect(orientationLetters([0.1, 0, 0.99])).toBe('S');
  });

  it("follows Cornerstone's right-hand rule for the screen's right", () => {
    expect(viewRightOf(SAGITTAL.up, SAGITTAL.normal)).toEqual([0, 1, 0]);
  });
});

describe('clampSlab', () => {
  it('keeps a slab within 0…50 mm, and makes anything unreadable thin', () => {
    expect([clampSlab(-3), clampSlab(12.5), clampSlab(400), clampSlab(Number.NaN)]).toEqual([0, 12.5, 50, 0]);
  });
});
