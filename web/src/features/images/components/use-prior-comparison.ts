import type { UseQueryResult } from '@tanstack/react-query';
import type { Image, StudySummary } from '@ra/shared';
import { formatMediumDate } from '../../../lib/dates';
import { isImageSeries, MODALITIES_WITH_PRIOR, type StudyRole } from '../../../viewer/hanging-protocols';
import { usePriorStudy } from '../api/prior-study';
import { useStudySeries, type SeriesSummary } from '../api/study-series';

/** A study a layout's viewports show: the one of the page, or its prior. */
export interface ShownStudy {
  role: StudyRole;
  /** The archive item the study is (its annotations belong to it). */
  itemUid: string;
  study: StudySummary;
  series: UseQueryResult<SeriesSummary[]>;
}

/** How a viewport names its study when two are compared: "Prior · Mar 12, 2025". */
export function studyLabel(shown: Pick<ShownStudy, 'role' | 'study'>): string {
  const date = shown.study.study_date ? formatMediumDate(shown.study.study_date) : 'date unknown';
  return `${shown.role === 'prior' ? 'Prior' : 'Current'} · ${date}`;
}

/**
 * The prior of the page's study, with its series (listed as soon as it is known, so that comparing
 * hangs at once): null while the patient's list loads, when it fails, and when there is no prior.
 */
export function usePriorComparison({
  item,
  study,
  series,
  isEnabled,
}: {
  item: Pick<Image, 'uid' | 'patient_uid' | 'createdAt'>;
  study: StudySummary;
  /** The current study's series. */
  series: SeriesSummary[] | undefined;
  isEnabled: boolean;
}): ShownStudy | null {
  const modalities = series
    ?.filter((entry) => isImageSeries(entry) && MODALITIES_WITH_PRIOR.includes(entry.modality))
    .map((entry) => entry.modality);
  const prior = usePriorStudy({ ...item, study }, modalities, { enabled: isEnabled });
  const priorSeries = useStudySeries(prior?.study.study_instance_uid ?? '', { enabled: Boolean(prior) });
  return prior ? { role: 'prior', itemUid: prior.uid, study: prior.study, series: priorSeries } : null;
}
