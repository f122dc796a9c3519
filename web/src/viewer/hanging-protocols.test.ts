import { describe, expect, it } from 'vitest';
import {
  hangStudy,
  isImageSeries,
  mammographyView,
  shouldLinkByDefault,
  type HangableSeries,
} from './hanging-protocols';

const series = (uid: string, modality: string, description = '', sopClassUid?: string): HangableSeries => ({
  uid,
  modality,
  description,
  number: null,
  ...(sopClassUid && { sopClassUid }),
});

describe('hanging protocols', () => {
  it('hangs a single CT or MR series alone', () => {
    expect(hangStudy([series('a', 'CT')])).toEqual({
      protocol: 'single-series',
      layout: '1x1',
      cells: ['a'],
    });
    expect(hangStudy([series('a', 'MR'), series('sr', 'SR')])).toMatchObject({ layout: '1x1', cells: ['a'] });
  });

  it('hangs two CT or MR series side by side, in the study order, leaving reports out', () => {
    expect(hangStudy([series('sr', 'SR'), series('a', 'CT'), series('b', 'CT')])).toEqual({
      protocol: 'cross-sectional-pair',
      layout: '1x2',
      cells: ['a', 'b'],
    });
    expect(hangStudy([series('a', 'MR'), series('b', 'MR'), series('c', 'MR')]).cells).toEqual(['a', 'b']);
  });

  it('does not put an X-ray and a CT side by side by default', () => {
    expect(hangStudy([series('a', 'CR'), series('b', 'CT')])).toMatchObject({ layout: '1x1', cells: ['a'] });
  });

  it('hangs the four mammography views two by two whatever their order', () => {
    const views = [
      series('lmlo', 'MG', 'L MLO'),
      series('rcc', 'MG', 'R CC'),
      series('lcc', 'MG', 'LCC'),
      series('rmlo', 'MG', 'Right MLO'),
    ];
    expect(hangStudy(views)).toEqual({
      protocol: 'mammography-four-views',
      layout: '2x2',
      cells: ['rcc', 'lcc', 'rmlo', 'lmlo'],
    });
    // Views not named fill the cells left; a missing one leaves its cell empty.
    expect(hangStudy([series('x', 'MG', 'Tomo'), series('rcc', 'MG', 'R CC')]).cells).toEqual([
      'rcc',
      'x',
      null,
      null,
    ]);
  });

  it('reads mammography views from series descriptions', () => {
    expect(mammographyView('R CC')).toBe('RCC');
    expect(mammographyView('left mlo')).toBe('LMLO');
    expect(mammographyView('RMLO implant displaced')).toBe('RMLO');
    expect(mammographyView('Tomosynthesis')).toBeUndefined();
  });

  it('tells image series by modality or SOP class', () => {
    expect(isImageSeries(series('a', 'CT'))).toBe(true);
    expect(isImageSeries(series('a', 'KO'))).toBe(false);
    expect(isImageSeries(series('a', 'OT', '', '1.2.840.10008.5.1.4.1.1.88.22'))).toBe(false);
    expect(isImageSeries(series('a', 'OT', '', '1.2.840.10008.5.1.4.1.1.7'))).toBe(true);
  });

  it('links viewports by default only when all their series share a known frame of reference', () => {
    expect(shouldLinkByDefault(['1.2.3', '1.2.3'])).toBe(true);
    expect(shouldLinkByDefault(['1.2.3', '1.2.4'])).toBe(false);
    expect(shouldLinkByDefault(['1.2.3', null])).toBe(false);
    expect(shouldLinkByDefault(['1.2.3'])).toBe(false);
  });
});
