import { describe, expect, it } from 'vitest';
import { seriesOfCells } from './viewer-layouts';

describe('seriesOfCells', () => {
  it('fills the other viewports with the series of images not shown yet, in order', () => {
    expect(seriesOfCells(4, 'b', [], ['a', 'b', 'c'])).toEqual(['b', 'a', 'c', null]);
  });

  it('keeps each viewport’s own choice, and does not show a chosen series twice by default', () => {
    expect(seriesOfCells(4, 'a', [undefined, undefined, 'b'], ['a', 'b', 'c'])).toEqual([
      'a',
      'c',
      'b',
      null,
    ]);
  });

  it('gives one viewport when the layout has one', () => {
    expect(seriesOfCells(1, null, ['x'], ['a'])).toEqual([null]);
  });
});
