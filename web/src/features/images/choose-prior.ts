import type { Image, StudySummary } from '@ra/shared';

/** An archive item as the choice of a prior reads it (an item of the patient's list). */
export type ListedItem = Pick<Image, 'uid' | 'study' | 'createdAt'>;

/** A listed item that is a DICOM study. */
export type ListedStudy<T extends ListedItem = ListedItem> = T & { study: StudySummary };

function uploadTime(item: ListedItem): number {
  return Date.parse(item.createdAt);
}

/**
 * Whether study `a` was taken before study `b`: by study date (YYYY-MM-DD) when both have one and
 * they differ, else (the same day, or a date the files do not give) by when the item was uploaded.
 */
export function isTakenBefore(a: ListedStudy, b: ListedStudy): boolean {
  const [dateA, dateB] = [a.study.study_date, b.study.study_date];
  if (dateA && dateB && dateA !== dateB) {
    return dateA < dateB;
  }
  return uploadTime(a) < uploadTime(b);
}

/**
 * The prior of the current study among the patient's items (those the caller may see): the most
 * recent other study taken before it that shares one of `modalities` (the current study's image
 * series', of those compared with a prior); null when there is none.
 */
export function choosePrior<T extends ListedItem>(
  current: ListedStudy,
  items: readonly T[],
  modalities: readonly string[],
): ListedStudy<T> | null {
  const wanted = new Set(modalities);
  let prior: ListedStudy<T> | null = null;
  for (const item of items) {
    if (
      item.study === null ||
      item.uid === current.uid ||
      item.study.study_instance_uid === current.study.study_instance_uid ||
      !item.study.modalities.some((modality) => wanted.has(modality))
    ) {
      continue;
    }
    const study = item as ListedStudy<T>;
    if (isTakenBefore(study, current) && (prior === null || isTakenBefore(prior, study))) {
      prior = study;
    }
  }
  return prior;
}
