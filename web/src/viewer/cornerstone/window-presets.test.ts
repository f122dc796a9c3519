import { describe, expect, it } from 'vitest';
import { fileWindows, formatWindow, rangeOfWindow, windowOfRange } from './window-presets';

describe('windows', () => {
  it('maps a window to the range DICOM’s linear function shows, and back', () => {
    expect(rangeOfWindow({ center: 40, width: 400 })).toEqual({ lower: -160, upper: 239 });
    expect(windowOfRange(-160, 239)).toEqual({ center: 40, width: 400 });
    expect(
      windowOfRange(...(Object.values(rangeOfWindow({ center: -600, width: 1500 })) as [number, number])),
    ).toEqual({
      center: -600,
      width: 1500,
    });
  });

  it('writes a window as the overlay shows it', () => {
    expect(formatWindow({ center: 39.6, width: 400.4 })).toBe('W 400 L 40');
  });

  it('offers every window the file gives, with its explanation, and skips unusable ones', () => {
    expect(
      fileWindows({
        '00281050': { vr: 'DS', Value: [40, 300, 50] },
        '00281051': { vr: 'DS', Value: [400, 1500, 0] },
        '00281055': { vr: 'LO', Value: ['SOFT TISSUE', ''] },
      }),
    ).toEqual([
      { name: 'From the file: SOFT TISSUE', center: 40, width: 400 },
      { name: 'From the file', center: 300, width: 1500 },
    ]);
    expect(fileWindows({})).toEqual([]);
    expect(fileWindows(undefined)).toEqual([]);
  });
});
