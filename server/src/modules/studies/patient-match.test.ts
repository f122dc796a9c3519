import { describe, expect, it } from 'vitest';
import { namesAnotherPatient, peopleInFiles } from '@ra/shared';

const JANE = { firstName: 'Jane', lastName: 'Müller', dob: '1980-04-02' };

describe('the wrong-patient guard', () => {
  it('accepts the chosen patient however the files spell the name', () => {
    for (const name of [
      'MULLER^JANE',
      'Müller^Jane^Ann',
      'muller^jane^^Mrs.',
      'Jane Müller',
      'MÜLLER JANE',
    ]) {
      expect(namesAnotherPatient({ name, birthDate: '1980-04-02' }, JANE), name).toBe(false);
    }
  });

  it('flags another name or another birth date', () => {
    expect(namesAnotherPatient({ name: 'DOE^JOHN', birthDate: '1980-04-02' }, JANE)).toBe(true);
    expect(namesAnotherPatient({ name: 'MULLER^JOHN', birthDate: '1980-04-02' }, JANE)).toBe(true);
    expect(namesAnotherPatient({ name: 'SMITH^JANE', birthDate: '1980-04-02' }, JANE)).toBe(true);
    expect(namesAnotherPatient({ name: 'MULLER^JANE', birthDate: '1980-04-03' }, JANE)).toBe(true);
  });

  it('treats an anonymised file (no name, no birth date) as no evidence', () => {
    expect(namesAnotherPatient({ name: '', birthDate: null }, JANE)).toBe(false);
    expect(namesAnotherPatient({ name: '^', birthDate: null }, JANE)).toBe(false);
    expect(namesAnotherPatient({ name: '', birthDate: '1999-01-01' }, JANE)).toBe(true);
  });
});

describe('the people the files name', () => {
  it('lists each distinct name and birth date once, in the order met, with how many files name them', () => {
    expect(
      peopleInFiles([
        { name: 'Doe^Jane', birthDate: '1980-04-02' },
        { name: 'Smith^John', birthDate: null },
        { name: 'Doe^Jane', birthDate: '1980-04-02' },
        { name: 'Doe^Jane', birthDate: '1980-04-03' },
      ]),
    ).toEqual([
      { name: 'Doe^Jane', birth_date: '1980-04-02', files: 2 },
      { name: 'Smith^John', birth_date: null, files: 1 },
      { name: 'Doe^Jane', birth_date: '1980-04-03', files: 1 },
    ]);
  });
});
