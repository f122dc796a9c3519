import { describe, expect, it } from 'vitest';
import { checkDicomJsonList, dicomJsonListSchema } from '@ra/shared';

const GOOD = [
  {
    '0020000D': { vr: 'UI', Value: ['1.2.3'] },
    '00100010': { vr: 'PN', Value: [{ Alphabetic: 'DOE^JANE' }] },
    '00081190': { vr: 'UR' },
    '7FE00010': { vr: 'OW', BulkDataURI: 'https://archive.test/bulk' },
    '00291010': { vr: 'OB', InlineBinary: 'AAEC' },
  },
];

const BAD: unknown[] = [
  {},
  [null],
  [[]],
  [{ '0020000d': { vr: 'UI' } }],
  [{ '0020000D': { Value: ['1.2.3'] } }],
  [{ '0020000D': { vr: 'UI', Value: '1.2.3' } }],
  [{ '7FE00010': { vr: 'OW', BulkDataURI: 7 } }],
  [{ '0020000D': null }],
];

describe('checkDicomJsonList', () => {
  it('accepts what the shared schema accepts, as the same objects', () => {
    expect(dicomJsonListSchema.safeParse(GOOD).success).toBe(true);
    expect(checkDicomJsonList(GOOD)).toBe(GOOD);
  });

  it.each(BAD.map((value) => [JSON.stringify(value), value]))(
    'refuses %s, as the schema does',
    (_, value) => {
      expect(dicomJsonListSchema.safeParse(value).success).toBe(false);
      expect(() => checkDicomJsonList(value)).toThrow(TypeError);
    },
  );
});
