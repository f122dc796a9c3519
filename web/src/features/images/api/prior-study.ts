import { useEffect } from 'react';
import type { Image } from '@ra/shared';
import { usePatientImages } from '../../../lib/api/patient-images';
import { choosePrior, type ListedStudy } from '../choose-prior';

/**
 * The prior of the current study (choose-prior.ts) among the items of its patient's list, which
 * holds only what the caller may see (a radiologist: the studies they were paid to read). Undefined
 * until the whole list is read (and when it cannot be: no comparison is offered), null when the
 * patient has no prior.
 */
export function usePriorStudy(
  current: ListedStudy & Pick<Image, 'patient_uid'>,
  /** The current study's image series' modalities; undefined while they are listed. */
  modalities: readonly string[] | undefined,
  options: { enabled: boolean },
): ListedStudy<Image> | null | undefined {
  const list = usePatientImages(current.patient_uid, { enabled: options.enabled });
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = list;
  // Pages come newest upload first; a study's date says nothing of where it is: all are read.
  useEffect(() => {
    if (options.enabled && hasNextPage && !isFetchingNextPage && !isFetchNextPageError) {
      void fetchNextPage();
    }
  }, [options.enabled, hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage]);
  if (!options.enabled || !list.data || hasNextPage || modalities === undefined) {
    return undefined;
  }
  return choosePrior(
    current,
    list.data.pages.flatMap((page) => page.images),
    modalities,
  );
}
