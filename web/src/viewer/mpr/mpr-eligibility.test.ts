import { describe, expect, it } from 'vitest';
import type { DicomJsonDataset } from '@ra/shared';
import { MPR_MAX_VOXELS, MPR_MIN_SLICES, mprEligibility } from './mpr-eligibility';

interface Options {
  count?: number;
  rows?: number;
  columns?: number;
  /** Millimetres between slices, or a function of the slice's index giving its position. */
  step?: number;
  positionOf?: (index: number) => [number, number, number];
  orientation?: number[];
  frame?: string | null;
  frames?: number;
  spacing?: number[];
}

/** An axial CT stack of `count` images 0.5 mm apart in-plane, `step` mm between slices. */
function stack(options: Options = {}): DicomJsonDataset[] {
  const { count = 40, rows = 64, columns = 64, step = 1.25, frame = '1.2.3' } = options;
  return Array.from({ length: count }, (_, index) => {
    const dataset: DicomJsonDataset = {
      '00080018': { vr: 'UI', Value: [`1.2.3.${index}`] },
      '00280010': { vr: 'US', Value: [rows] },
      '00280011': { vr: 'US', Value: [columns] },
      '00280100': { vr: 'US', Value: [16] },
      '00280030': { vr: 'DS', Value: options.spacing ?? [0.5, 0.5] },
      '00200032': { vr: 'DS', Value: options.positionOf?.(index) ?? [-16, -16, index * step] },
      '00200037': { vr: 'DS', Value: options.orientation ?? [1, 0, 0, 0, 1, 0] },
    };
    if (frame !== null) {
      dataset['00200052'] = { vr: 'UI', Value: [frame] };
    }
    if (options.frames !== undefined) {
      dataset['00280008'] = { vr: 'IS', Value: [String(options.frames)] };
    }
    return dataset;
  });
}

const reasonOf = (modality: string, datasets: DicomJsonDataset[]) => {
  const result = mprEligibility({ modality, datasets });
  return result.ok ? 'ok' : result.reason;
};

describe('mprEligibility', () => {
  it('accepts an even CT stack and gives its volume: columns, rows, slices and spacing in mm', () => {
    // Shuffled: the order of the instances in the metadata says nothing.
    const datasets = stack();
    datasets.reverse();
    expect(mprEligibility({ modality: 'CT', datasets })).toEqual({
      ok: true,
      geometry: {
        columns: 64,
        rows: 64,
        slices: 40,
        spacing: [0.5, 0.5, 1.25],
        voxels: 64 * 64 * 40,
        bytes: 64 * 64 * 40 * 2,
      },
    });
  });

  it('reads the slice step along the normal of oblique and sagittal stacks', () => {
    // A sagittal stack: rows along y, columns along -z, slices along x.
    const sagittal = mprEligibility({
      modality: 'MR',
      datasets: stack({ orientation: [0, 1, 0, 0, 0, -1], positionOf: (index) => [index * 3, -16, 16] }),
    });
    expect(sagittal.ok && sagittal.geometry.spacing).toEqual([0.5, 0.5, 3]);
    const tilt = Math.SQRT1_2;
    const oblique = mprEligibility({
      modality: 'MR',
      datasets: stack({
        orientation: [1, 0, 0, 0, tilt, -tilt],
        positionOf: (index) => [0, index * 2 * tilt, index * 2 * tilt],
      }),
    });
    expect(oblique.ok && oblique.geometry.spacing[2]).toBeCloseTo(2, 6);
  });

  it('refuses what is not CT or MR', () => {
    expect(reasonOf('US', stack())).toMatch(/CT and MR.*US/);
    expect(reasonOf('CT', stack())).toBe('ok');
    expect(reasonOf('mr', stack())).toBe('ok');
  });

  it(`refuses fewer than ${MPR_MIN_SLICES} images, and multi-frame images`, () => {
    expect(reasonOf('CT', stack({ count: MPR_MIN_SLICES - 1 }))).toMatch(
      /at least 10 images; this series has 9/,
    );
    expect(reasonOf('CT', stack({ count: MPR_MIN_SLICES }))).toBe('ok');
    expect(reasonOf('CT', stack({ frames: 30 }))).toMatch(/multi-frame/);
  });

  it('refuses images in several frames of reference, or in none', () => {
    const mixed = [...stack({ count: 20 }), ...stack({ count: 20, frame: '9.9' })];
    expect(reasonOf('CT', mixed)).toMatch(/more than one frame of reference/);
    expect(reasonOf('CT', stack({ frame: null }))).toMatch(/no frame of reference/);
  });

  it('refuses images of different sizes or spacings, or without a plane', () => {
    expect(reasonOf('CT', [...stack({ count: 20 }), ...stack({ count: 1, rows: 32 })])).toMatch(
      /differ in size/,
    );
    expect(reasonOf('CT', [...stack({ count: 20 }), ...stack({ count: 1, spacing: [0.6, 0.5] })])).toMatch(
      /pixel spacing/,
    );
    expect(reasonOf('CT', stack({ spacing: [] }))).toMatch(/pixel spacing/);
    const planeless = stack();
    delete planeless[3]!['00200037'];
    expect(reasonOf('CT', planeless)).toMatch(/no position or orientation/);
  });

  it('refuses images in different orientations', () => {
    const datasets = stack();
    datasets[7]!['00200037'] = { vr: 'DS', Value: [1, 0, 0, 0, 0.94, -0.34] };
    expect(reasonOf('CT', datasets)).toMatch(/same orientation/);
  });

  it('refuses uneven steps and repeated positions, within a tolerance of 5%', () => {
    // One gap of 2.5 mm among 1.25 mm ones: a missing slice.
    expect(
      reasonOf(
        'CT',
        stack({ positionOf: (index) => [0, 0, index < 20 ? index * 1.25 : (index + 1) * 1.25] }),
      ),
    ).toMatch(/not evenly spaced/);
    // Rounding in the files (1.25 ± 0.01) is fine.
    expect(reasonOf('CT', stack({ positionOf: (index) => [0, 0, index * 1.25 + (index % 2) * 0.01] }))).toBe(
      'ok',
    );
    expect(reasonOf('CT', stack({ positionOf: (index) => [0, 0, Math.floor(index / 2) * 1.25] }))).toMatch(
      /same position/,
    );
  });

  it('refuses a stack whose images shift in their own plane (a tilted gantry)', () => {
    // Each slice 0.3 mm further along y: 11.7 mm over the stack.
    expect(reasonOf('CT', stack({ positionOf: (index) => [0, index * 0.3, index * 1.25] }))).toMatch(
      /tilted gantry/,
    );
  });

  it('refuses volumes whose decoded images would not fit the image cache', () => {
    const floats = (count: number) =>
      stack({ count, rows: 512, columns: 512 }).map((dataset) => ({
        ...dataset,
        '00281053': { vr: 'DS', Value: [0.5] },
      }));
    expect(reasonOf('CT', floats(600))).toBe('ok');
    expect(reasonOf('CT', floats(700))).toMatch(/too large.*700 MiB decoded, where the limit is 640 MiB/);
  });

  it('refuses volumes over 512 × 512 × 1000 voxels, and accepts that size', () => {
    expect(reasonOf('CT', stack({ count: 1000, rows: 512, columns: 512 }))).toBe('ok');
    expect(MPR_MAX_VOXELS).toBe(512 * 512 * 1000);
    expect(reasonOf('CT', stack({ count: 1001, rows: 512, columns: 512 }))).toMatch(
      /too large.*512 × 512 × 1001 voxels, where the limit is 512 × 512 × 1000/,
    );
  });
});
