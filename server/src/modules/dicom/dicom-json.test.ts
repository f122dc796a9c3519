import { describe, expect, it } from 'vitest';
import { MAX_INLINE_BINARY_BYTES, MAX_INLINE_TEXT_BYTES, toDicomJson } from './dicom-json.js';

const words = (...values: number[]) => new Uint16Array(values).buffer;

describe('toDicomJson', () => {
  it('writes small binary values inline, little endian, and drops large ones', () => {
    const bigEndianWord = Uint8Array.from([0x01, 0x02]).buffer;
    expect(
      toDicomJson({ '00091010': { vr: 'OW', Value: [bigEndianWord] } }, { littleEndian: false }),
    ).toEqual({
      '00091010': { vr: 'OW', InlineBinary: Buffer.from([0x02, 0x01]).toString('base64') },
    });
    const large = { '00091010': { vr: 'OB', Value: [new ArrayBuffer(MAX_INLINE_BINARY_BYTES + 1)] } };
    expect(toDicomJson(large, { littleEndian: true })).toEqual({});
    expect(toDicomJson({ '00091010': { vr: 'OW', Value: [words(1, 2)] } }, { littleEndian: true })).toEqual({
      '00091010': { vr: 'OW', InlineBinary: Buffer.from([1, 0, 2, 0]).toString('base64') },
    });
  });

  it('leaves out pixel data, the meta group and group lengths, and never writes undefined or NaN', () => {
    const json = toDicomJson(
      {
        '00020010': { vr: 'UI', Value: ['1.2.840.10008.1.2.1'] },
        '00080000': { vr: 'UL', Value: [20] },
        '7FE00010': { vr: 'OW', Value: [words(1)] },
        '00181050': { vr: 'DS', Value: [Number.NaN, 2] },
        '00080060': { vr: 'CS', Value: [''] },
        '00091011': { vr: 'xs', Value: [3] },
      },
      { littleEndian: true },
    );
    expect(json).toEqual({
      '00181050': { vr: 'DS', Value: [null, 2] },
      '00080060': { vr: 'CS' },
      '00091011': { vr: 'US', Value: [3] },
    });
    expect(JSON.stringify(json)).not.toContain('undefined');
  });

  it('refers to long text and large binaries by their place, inside sequences too', () => {
    const long = 'R'.repeat(MAX_INLINE_TEXT_BYTES + 1);
    const dataset = {
      '0040A160': { vr: 'UT', Value: [long] },
      '0040A730': {
        vr: 'SQ',
        Value: [{}, { '00091010': { vr: 'OB', Value: [new ArrayBuffer(MAX_INLINE_BINARY_BYTES + 1)] } }],
      },
      '00081030': { vr: 'LO', Value: ['Head CT'] },
    };
    const json = toDicomJson(dataset, { littleEndian: true, bulkDataUri: (place) => `bulk:${place}` });
    expect(json['0040A160']).toEqual({ vr: 'UT', BulkDataURI: 'bulk:0040A160' });
    expect(json['0040A730']!.Value![1]).toEqual({
      '00091010': { vr: 'OB', BulkDataURI: 'bulk:0040A730/2/00091010' },
    });
    expect(json['00081030']).toEqual({ vr: 'LO', Value: ['Head CT'] });
    expect(toDicomJson(dataset, { littleEndian: true })['0040A160']).toBeUndefined();
  });
});
