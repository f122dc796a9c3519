import { describe, expect, it } from 'vitest';
import { personNameOf } from './dicom-person-name';

describe('personNameOf', () => {
  it('writes Family^Given^Middle^Prefix^Suffix as people do', () => {
    expect(personNameOf('SMITH^JOHN')).toBe('JOHN SMITH');
    expect(personNameOf('Doe^Jane^Q^Dr.^Jr.')).toBe('Dr. Jane Q Doe Jr.');
    expect(personNameOf('Doe^^^^')).toBe('Doe');
    expect(personNameOf('PLAIN NAME')).toBe('PLAIN NAME');
  });

  it('takes the first form given of the alphabetic, ideographic and phonetic ones', () => {
    expect(personNameOf('Yamada^Tarou=山田^太郎=やまだ^たろう')).toBe('Tarou Yamada');
    expect(personNameOf('=山田^太郎')).toBe('太郎 山田');
    expect(personNameOf('')).toBe('');
  });
});
