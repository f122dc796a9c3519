import type { DcmjsDataset } from 'dcmjs';
import { describe, expect, it } from 'vitest';
import { readDate, readInteger, readString } from './dicom-values.js';

const one = (vr: string, ...values: unknown[]): DcmjsDataset => ({ '00100030': { vr, Value: values } });

describe('reading single values', () => {
  it('reads a DA as YYYY-MM-DD and anything that is not a real date as null', () => {
    expect(readDate(one('DA', '19710123'), '00100030')).toBe('1971-01-23');
    expect(readDate(one('DA', '2000.02.29'), '00100030')).toBe('2000-02-29');
    expect(readDate(one('DA', '19710123 '), '00100030')).toBe('1971-01-23');
    for (const value of ['', '20230230', '19711323', '1971012', 'unknown']) {
      expect(readDate(one('DA', value), '00100030'), value).toBeNull();
    }
    expect(readDate({}, '00100030')).toBeNull();
    expect(readDate(one('DA', 19710123), '00100030')).toBe('1971-01-23');
  });

  it('reads whole numbers only', () => {
    expect(readInteger(one('IS', 7), '00100030')).toBe(7);
    expect(readInteger(one('IS', ' 12 '), '00100030')).toBe(12);
    for (const value of [1.5, Number.NaN, '', 'x', undefined]) {
      expect(readInteger(one('IS', value), '00100030'), String(value)).toBeNull();
    }
  });

  it('reads a person name as its alphabetic group without trailing carets', () => {
    expect(readString(one('PN', { Alphabetic: 'Doe^Jane^^^' }), '00100030')).toBe('Doe^Jane');
    expect(readString(one('PN', { Ideographic: '山田^太郎' }), '00100030')).toBe('');
    expect(readString(one('LO', ' padded\0'), '00100030')).toBe('padded');
  });
});
