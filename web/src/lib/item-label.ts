import type { ItemKind, StudySummary } from '@ra/shared';

export { physicianNoteOf } from '@ra/shared';
import { formatDateTime, formatShortDate } from './dates';

/** What tells one archive item from another in a sentence: a study's modalities and description, or "Image". */
export function itemName(item: { kind: ItemKind; study: StudySummary | null }): string {
  if (!item.study) {
    return 'Image';
  }
  const what = [item.study.modalities.join(', '), item.study.study_description].filter(Boolean).join(' ');
  return what || 'DICOM study';
}

/** An item's name with its date: the study's date, or when an image was uploaded. */
export function itemTitle(item: { kind: ItemKind; study: StudySummary | null; createdAt: string }): string {
  const date = item.study?.study_date
    ? formatShortDate(item.study.study_date)
    : `uploaded ${formatDateTime(item.createdAt)}`;
  return `${itemName(item)} · ${date}`;
}
