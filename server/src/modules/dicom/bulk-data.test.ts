import { describe, expect, it } from 'vitest';
import { bulkValueOf, parseBulkDataPath } from './bulk-data.js';

describe('bulk data places', () => {
  it('reads a top-level tag and tags inside sequence items, and nothing else', () => {
    expect(parseBulkDataPath('0040A160')).toEqual({ tag: '0040A160', within: [] });
    expect(parseBulkDataPath('0040A730/2/0040A160')).toEqual({
      tag: '0040A160',
      within: [{ sequence: '0040A730', item: 2 }],
    });
    for (const bad of [
      '',
      '0040a160',
      '0040A730/0/0040A160',
      '0040A730/2',
      '../0040A160',
      '0040A730/x/0040A160',
    ]) {
      expect(parseBulkDataPath(bad), bad).toBeUndefined();
    }
    expect(parseBulkDataPath(Array(40).fill('0040A730/1').join('/') + '/0040A160')).toBeUndefined();
  });

  it('gives binary values little endian and text as UTF-8, and nothing for a missing place', () => {
    const dataset = {
      '0040A730': {
        vr: 'SQ',
        Value: [{ '00091010': { vr: 'OW', Value: [Uint8Array.from([1, 2, 3, 4]).buffer] } }],
      },
      '0040A160': { vr: 'UT', Value: ['Größe'] },
      '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Doe^Jane', Ideographic: '山田' }] },
    };
    const big = bulkValueOf(dataset, parseBulkDataPath('0040A730/1/00091010')!, { littleEndian: false });
    expect([...big!]).toEqual([2, 1, 4, 3]);
    expect(
      Buffer.from(bulkValueOf(dataset, parseBulkDataPath('0040A160')!, { littleEndian: true })!).toString(),
    ).toBe('Größe');
    expect(
      Buffer.from(bulkValueOf(dataset, parseBulkDataPath('00100010')!, { littleEndian: true })!).toString(),
    ).toBe('Doe^Jane=山田');
    expect(
      bulkValueOf(dataset, parseBulkDataPath('0040A730/2/00091010')!, { littleEndian: true }),
    ).toBeUndefined();
    expect(bulkValueOf(dataset, parseBulkDataPath('0040A730')!, { littleEndian: true })).toBeUndefined();
  });
});
