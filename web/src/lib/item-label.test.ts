import { describe, expect, it } from 'vitest';
import { formatDateTime } from './dates';
import { itemName, itemTitle } from './item-label';

const study = {
  study_instance_uid: '1.2.3',
  study_date: '2026-11-20',
  study_description: 'Chest',
  modalities: ['CT', 'SR'],
  series_count: 2,
  instance_count: 3,
  patient_name_in_file: 'One^Pat',
  patient_birth_date_in_file: null,
};

describe('item labels', () => {
  it('names a study by its modalities and description, dated by the study', () => {
    expect(itemTitle({ kind: 'study', study, createdAt: '2026-11-25T10:00:00.000Z' })).toBe(
      'CT, SR Chest · 11/20/26',
    );
    expect(itemName({ kind: 'study', study: { ...study, modalities: [], study_description: '' } })).toBe(
      'DICOM study',
    );
  });

  it('names a raster image by when it was uploaded', () => {
    const createdAt = '2026-11-25T10:00:00.000Z';
    expect(itemTitle({ kind: 'image', study: null, createdAt })).toBe(
      `Image · uploaded ${formatDateTime(createdAt)}`,
    );
  });
});
