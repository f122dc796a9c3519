import { describe, expect, it } from 'vitest';
import type { DicomJsonDataset } from '@ra/shared';
import { orderSlices } from './slice-order';

function instance(sop: string, fields: { number?: number; z?: number; frames?: number; location?: number }) {
  const dataset: DicomJsonDataset = {
    '00080018': { vr: 'UI', Value: [sop] },
    '00280010': { vr: 'US', Value: [4] },
    '00280011': { vr: 'US', Value: [4] },
  };
  if (fields.number !== undefined) {
    dataset['00200013'] = { vr: 'IS', Value: [fields.number] };
  }
  if (fields.z !== undefined) {
    dataset['00200032'] = { vr: 'DS', Value: [0, 0, fields.z] };
    dataset['00200037'] = { vr: 'DS', Value: [1, 0, 0, 0, 1, 0] };
  }
  if (fields.frames !== undefined) {
    dataset['00280008'] = { vr: 'IS', Value: [String(fields.frames)] };
  }
  if (fields.location !== undefined) {
    dataset['00201041'] = { vr: 'DS', Value: [fields.location] };
  }
  return dataset;
}

const idOf = (sop: string, frame: number) => `${sop}#${frame}`;

describe('orderSlices', () => {
  it('orders slices along their normal when every one has a position, whatever their numbers say', () => {
    const slices = orderSlices(
      [
        instance('c', { number: 1, z: 5 }),
        instance('a', { number: 3, z: -5 }),
        instance('b', { number: 2, z: 0 }),
      ],
      idOf,
    );
    expect(slices.map((slice) => slice.imageId)).toEqual(['a#1', 'b#1', 'c#1']);
    expect(slices.map((slice) => slice.sliceLocation)).toEqual([-5, 0, 5]);
  });

  it('falls back to Instance Number when a position is missing, and prefers Slice Location for the overlay', () => {
    const slices = orderSlices(
      [instance('b', { number: 2, location: 12.5 }), instance('a', { number: 1, z: 3 }), instance('n', {})],
      idOf,
    );
    expect(slices.map((slice) => slice.sopInstanceUid)).toEqual(['a', 'b', 'n']);
    expect(slices[1]!.sliceLocation).toBe(12.5);
    expect(slices[2]!.instanceNumber).toBeNull();
  });

  it('expands a multi-frame instance into its frames, numbered from 1, and leaves out objects without pixels', () => {
    const report: DicomJsonDataset = { '00080018': { vr: 'UI', Value: ['sr'] } };
    const slices = orderSlices([instance('cine', { number: 1, frames: 3 }), report], idOf);
    expect(slices.map((slice) => [slice.imageId, slice.frame])).toEqual([
      ['cine#1', 1],
      ['cine#2', 2],
      ['cine#3', 3],
    ]);
  });
});
