import { describe, expect, it } from 'vitest';
import { formatWindow, rangeOfWindow, windowOfRange } from './window-presets';

describe('windows', () => {
  it('turns a range into a window and back', () => {
    expect(windowOfRange(-160, 240)).toEqual({ center: 40, width: 400 });
    expect(rangeOfWindow({ center: -600, width: 1500 })).toEqual({ lower: -1350, upper: 150 });
  });

  it('writes a window as the overlay shows it', () => {
    expect(formatWindow({ center: 39.6, width: 400.4 })).toBe('W 400 L 40');
  });
});
