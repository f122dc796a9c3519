import { describe, expect, it } from 'vitest';
import { groupedKey } from './shared-cache.js';

describe('groupedKey', () => {
  it('never makes one key from different parts, whatever the parts hold', () => {
    expect(groupedKey('a|b', 'c')).not.toBe(groupedKey('a', 'b|c'));
    expect(groupedKey('p', 'v|PATIENT', 'true')).not.toBe(groupedKey('p', 'v', 'PATIENT|true'));
    expect(groupedKey('p', 'x')).toBe(groupedKey('p', 'x'));
  });
});
