import { describe, expect, it } from 'vitest';
import { pixelAt, probeText, probeUnit, probeValue, type ProbedImage } from './probe-value';

/** A 3 × 2 image of stored values 0…5, CT-like: value = stored × 2 − 1024. */
const image: ProbedImage = {
  columns: 3,
  rows: 2,
  pixels: Uint16Array.from([0, 1, 2, 3, 4, 5]),
  isPreScaled: false,
  slope: 2,
  intercept: -1024,
};

describe('probe value', () => {
  it('finds the pixel a point falls in, and nothing outside the image', () => {
    expect(pixelAt([0, 0], image)).toEqual({ column: 0, row: 0 });
    expect(pixelAt([2.99, 1.5], image)).toEqual({ column: 2, row: 1 });
    expect(pixelAt([3, 0], image)).toBeUndefined();
    expect(pixelAt([-0.01, 0], image)).toBeUndefined();
  });

  it('applies the rescale to stored values, and not twice to pre-scaled ones', () => {
    expect(probeValue([1.2, 1.7], image)).toBe(4 * 2 - 1024);
    expect(probeValue([1.2, 1.7], { ...image, isPreScaled: true })).toBe(4);
    expect(probeValue([5, 5], image)).toBeUndefined();
    expect(probeValue([0, 0], { ...image, pixels: null })).toBeUndefined();
  });

  it('says HU for CT, the rescale type otherwise, and a bare value without one', () => {
    expect(probeUnit('CT', 'US')).toBe('HU');
    expect(probeUnit('PT', 'BQML')).toBe('BQML');
    expect(probeUnit('MR')).toBe('');
    expect(probeText(100, 'HU')).toBe('100 HU');
    expect(probeText(-999.6, 'HU')).toBe('-1000 HU');
    expect(probeText(1.234, 'BQML')).toBe('1.23 BQML');
    expect(probeText(220, '')).toBe('220 (stored value)');
  });
});
