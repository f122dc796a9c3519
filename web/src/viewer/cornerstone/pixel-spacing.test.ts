import { describe, expect, it } from 'vitest';
import type { DicomJsonDataset } from '@ra/shared';
import {
  lengthUnit,
  markMeasuredAtDetector,
  measurableDataset,
  spacingOf,
  spacingSourceOf,
} from './pixel-spacing';

const PLANE: DicomJsonDataset = {
  '00200032': { vr: 'DS', Value: [-100, -100, 20] },
  '00200037': { vr: 'DS', Value: [1, 0, 0, 0, 1, 0] },
};

describe('spacingSourceOf', () => {
  it('prefers Pixel Spacing, then Imager Pixel Spacing, else none', () => {
    expect(spacingSourceOf({ '00280030': { vr: 'DS', Value: [0.5, 0.5] } })).toBe('pixel');
    expect(
      spacingSourceOf({
        '00280030': { vr: 'DS', Value: [0.5, 0.5] },
        '00181164': { vr: 'DS', Value: [0.6, 0.6] },
      }),
    ).toBe('pixel');
    expect(spacingSourceOf({ '00181164': { vr: 'DS', Value: ['0.2', '0.2'] } })).toBe('imager');
    expect(spacingSourceOf({})).toBe('none');
  });

  it('takes neither a spacing of one value, nor of zero, nor of text that is no number', () => {
    expect(spacingOf({ '00280030': { vr: 'DS', Value: [0.5] } }, '00280030')).toBeNull();
    expect(spacingOf({ '00280030': { vr: 'DS', Value: [0, 0.5] } }, '00280030')).toBeNull();
    expect(spacingOf({ '00280030': { vr: 'DS', Value: ['x', 'y'] } }, '00280030')).toBeNull();
    expect(spacingSourceOf({ '00280030': { vr: 'DS', Value: [0, 0] } })).toBe('none');
  });
});

describe('measurableDataset', () => {
  it('leaves an image with Pixel Spacing and a plane, or with no spacing, as it is', () => {
    const mr = { ...PLANE, '00280030': { vr: 'DS', Value: [0.75, 0.8] } };
    expect(measurableDataset(mr)).toBe(mr);
    const photo = { '00280010': { vr: 'US', Value: [10] } };
    expect(measurableDataset(photo)).toBe(photo);
  });

  it('measures an image with only Imager Pixel Spacing by it, row spacing first, on the default plane', () => {
    const dx: DicomJsonDataset = { '00181164': { vr: 'DS', Value: ['0.143', '0.15'] } };
    const measurable = measurableDataset(dx);
    expect(measurable['00280030']).toEqual({ vr: 'DS', Value: [0.143, 0.15] });
    expect(measurable['00200032']).toEqual({ vr: 'DS', Value: [0, 0, 0] });
    expect(measurable['00200037']).toEqual({ vr: 'DS', Value: [1, 0, 0, 0, 1, 0] });
    // The app's copy is unchanged.
    expect(dx['00280030']).toBeUndefined();
  });

  it('lays an image with Pixel Spacing but no plane (a radiograph) on the default plane, keeping its own', () => {
    const cr: DicomJsonDataset = { '00280030': { vr: 'DS', Value: [0.1, 0.1] } };
    expect(measurableDataset(cr)['00200037']).toEqual({ vr: 'DS', Value: [1, 0, 0, 0, 1, 0] });
    expect(measurableDataset({ ...PLANE, ...cr })['00200032']).toEqual(PLANE['00200032']);
  });
});

describe('lengthUnit', () => {
  it('says "mm (detector)" only for millimetres on an image measured at the detector', () => {
    markMeasuredAtDetector('wadors:dx#1');
    expect(lengthUnit('mm', 'wadors:dx#1')).toBe('mm (detector)');
    expect(lengthUnit('mm', 'wadors:mr#1')).toBe('mm');
    expect(lengthUnit('px', 'wadors:dx#1')).toBe('px');
    expect(lengthUnit('mm', undefined)).toBe('mm');
  });
});
