import { describe, expect, it } from 'vitest';
import {
  hangStudy,
  hangWithPrior,
  isImageSeries,
  mammographyView,
  matchPriorSeries,
  MODALITIES_WITH_PRIOR,
  shouldLinkByDefault,
  viewOfDescription,
  type HangableSeries,
} from './hanging-protocols';

const series = (uid: string, modality: string, description = '', sopClassUid?: string): HangableSeries => ({
  uid,
  modality,
  description,
  number: null,
  ...(sopClassUid && { sopClassUid }),
});
const numbered = (uid: string, modality: string, description: string, number: number): HangableSeries => ({
  ...series(uid, modality, description),
  number,
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

  it('never hangs a study by its comparison protocol on its own', () => {
    expect(hangStudy([series('a', 'CR')]).protocol).toBe('single-series');
    expect(hangStudy([series('a', 'CT'), series('b', 'CT')]).protocol).toBe('cross-sectional-pair');
  });
});

describe('hanging beside a prior', () => {
  it('compares CT, MR, radiographs and mammograms, not the other modalities', () => {
    expect([...MODALITIES_WITH_PRIOR].sort()).toEqual(['CR', 'CT', 'DX', 'MG', 'MR']);
    expect(hangWithPrior([series('a', 'US')], [series('p', 'US')])).toBeNull();
    expect(hangWithPrior([series('a', 'DX')], [series('p', 'DX')])).toMatchObject({ layout: '1x2' });
  });

  it('hangs the current best series on the left and the prior’s of its modality on the right', () => {
    const current = [series('sr', 'SR'), series('ct', 'CT', 'Chest'), series('ct2', 'CT', 'Lung')];
    const prior = [series('p-sr', 'SR'), series('p-mr', 'MR'), series('p-ct', 'CT', 'Abdomen')];
    expect(hangWithPrior(current, prior)).toEqual({
      protocol: 'current-beside-prior',
      layout: '1x2',
      cells: [
        { study: 'current', series: 'ct' },
        { study: 'prior', series: 'p-ct' },
      ],
    });
  });

  it('keeps the series the reader is on, when the prior has one to match it', () => {
    const current = [series('ct', 'CT'), series('mr', 'MR', 'T2 axial')];
    const prior = [series('p-ct', 'CT'), series('p-mr', 'MR', 'T2 axial')];
    expect(hangWithPrior(current, prior, 'mr')?.cells).toEqual([
      { study: 'current', series: 'mr' },
      { study: 'prior', series: 'p-mr' },
    ]);
    // The prior has no CT: the current's MR is compared instead.
    expect(hangWithPrior(current, [series('p-mr', 'MR')], 'ct')?.cells[0]).toEqual({
      study: 'current',
      series: 'mr',
    });
    expect(hangWithPrior(current, [series('p-pt', 'PT'), series('p-sr', 'SR')])).toBeNull();
    expect(hangWithPrior([series('sr', 'SR')], [series('p-sr', 'SR')])).toBeNull();
  });

  it('matches by description, then plane or view, then series number', () => {
    const current = numbered('c', 'CT', 'Thorax 1.0 B70f', 3);
    const prior = [
      numbered('number', 'CT', 'Abdomen', 3),
      numbered('plane', 'MR', 'Thorax 1.0 B70f', 1),
      numbered('same', 'CT', 'thorax 1,0 b70f', 7),
    ];
    expect(matchPriorSeries(current, prior)?.uid).toBe('same');
    expect(matchPriorSeries(current, prior.slice(0, 2))?.uid).toBe('number');
    const sagittal = numbered('c', 'MR', 'T1 SAG', 2);
    expect(
      matchPriorSeries(sagittal, [
        numbered('ax', 'MR', 'T1 AX', 2),
        numbered('sag', 'MR', 'T1 sagittal post', 5),
      ])?.uid,
    ).toBe('sag');
    expect(
      matchPriorSeries(series('c', 'MG', 'L MLO'), [
        series('rcc', 'MG', 'R CC'),
        series('lmlo', 'MG', 'LMLO'),
      ])?.uid,
    ).toBe('lmlo');
    // Equally good: the prior's first.
    expect(matchPriorSeries(series('c', 'CT'), [series('one', 'CT'), series('two', 'CT')])?.uid).toBe('one');
    expect(matchPriorSeries(series('c', 'CT'), [series('mr', 'MR')])).toBeUndefined();
  });

  it('reads planes and views from series descriptions', () => {
    expect(viewOfDescription('T2 TRA')).toBe('axial');
    expect(viewOfDescription('Cor MPR 3mm')).toBe('coronal');
    expect(viewOfDescription('Chest LAT')).toBe('lateral');
    expect(viewOfDescription('R CC')).toBe('RCC');
    expect(viewOfDescription('Corpus callosum')).toBeUndefined();
  });
});
