import { describe, expect, it } from 'vitest';
import { formatWindow, rangeOfWindow, windowOfRange } from './window-presets';

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
});
