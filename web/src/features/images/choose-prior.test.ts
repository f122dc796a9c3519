import { describe, expect, it } from 'vitest';
import { choosePrior, isTakenBefore, type ListedItem, type ListedStudy } from './choose-prior';

function study(
  uid: string,
  studyDate: string | null,
  modalities: string[],
  createdAt = '2026-01-01T10:00:00.000Z',
): ListedStudy {
  return {
    uid,
    createdAt,
    study: {
      study_instance_uid: `1.2.3.${uid}`,
      study_date: studyDate,
      study_description: '',
      modalities,
      series_count: 1,
      instance_count: 1,
      patient_name_in_file: '',
      patient_birth_date_in_file: null,
    },
  };
}

const raster: ListedItem = { uid: 'raster', study: null, createdAt: '2020-01-01T10:00:00.000Z' };
const CURRENT = study('current', '2026-03-12', ['CT', 'SR'], '2026-03-13T08:00:00.000Z');

describe('choosePrior', () => {
  it('takes the most recent study dated before the current one, whatever the list order', () => {
    const old = study('old', '2024-01-05', ['CT']);
    const recent = study('recent', '2025-03-12', ['CT']);
    const later = study('later', '2026-05-01', ['CT']);
    expect(choosePrior(CURRENT, [later, old, recent, raster], ['CT'])?.uid).toBe('recent');
    expect(choosePrior(CURRENT, [recent, old, later], ['CT'])?.uid).toBe('recent');
  });

  it('takes only a study sharing a modality of the current image series', () => {
    const mr = study('mr', '2025-12-01', ['MR']);
    const ctWithReport = study('ct', '2024-06-01', ['CT', 'SR']);
    const reportOnly = study('sr', '2026-01-01', ['SR']);
    expect(choosePrior(CURRENT, [mr, reportOnly, ctWithReport], ['CT'])?.uid).toBe('ct');
    expect(choosePrior(CURRENT, [mr, reportOnly], ['CT'])).toBeNull();
    expect(choosePrior(CURRENT, [mr], ['CT', 'MR'])?.uid).toBe('mr');
  });

  it('orders studies of one day, or without a date, by upload time', () => {
    const sameDayBefore = study('before', '2026-03-12', ['CT'], '2026-03-12T09:00:00.000Z');
    const sameDayAfter = study('after', '2026-03-12', ['CT'], '2026-03-14T09:00:00.000Z');
    expect(choosePrior(CURRENT, [sameDayAfter, sameDayBefore], ['CT'])?.uid).toBe('before');
    expect(choosePrior(CURRENT, [sameDayAfter], ['CT'])).toBeNull();

    const undatedBefore = study('undated', null, ['CT'], '2026-03-01T09:00:00.000Z');
    const undatedAfter = study('undated-after', null, ['CT'], '2026-04-01T09:00:00.000Z');
    expect(choosePrior(CURRENT, [undatedAfter, undatedBefore], ['CT'])?.uid).toBe('undated');
    const undatedCurrent = study('current', null, ['CT'], '2026-03-13T08:00:00.000Z');
    expect(
      choosePrior(undatedCurrent, [study('dated', '2030-01-01', ['CT'], '2026-02-01T00:00:00.000Z')], ['CT'])
        ?.uid,
    ).toBe('dated');
  });

  it('never takes the current item, the same study filed again, or nothing', () => {
    const sameStudy = {
      ...study('copy', '2020-01-01', ['CT']),
      study: { ...CURRENT.study, study_date: '2020-01-01' },
    };
    expect(choosePrior(CURRENT, [CURRENT, sameStudy, raster], ['CT'])).toBeNull();
    expect(choosePrior(CURRENT, [], ['CT'])).toBeNull();
    expect(choosePrior(CURRENT, [study('old', '2020-01-01', ['CT'])], [])).toBeNull();
  });

  it('tells which of two studies was taken first', () => {
    expect(isTakenBefore(study('a', '2025-01-01', ['CT']), study('b', '2025-01-02', ['CT']))).toBe(true);
    expect(isTakenBefore(study('a', '2025-01-02', ['CT']), study('b', '2025-01-01', ['CT']))).toBe(false);
  });
});
