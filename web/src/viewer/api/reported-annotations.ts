import { useQuery } from '@tanstack/react-query';
import { reportedAnnotationsResponseSchema, type MeasurementReport } from '@ra/shared';
import { apiRequest } from '../../lib/api-client';
import { dicomwebAccess } from '../../lib/dicomweb';

/*
 * The measurements of the Structured Reports found in a study (docs/api.md §15.4): read once per
 * study and shown read-only, never saved back as the user's annotations.
 */

export function reportedAnnotationsQueryKey(itemUid: string) {
  return ['reported-annotations', itemUid] as const;
}

export async function fetchReportedAnnotations(
  itemUid: string,
  signal?: AbortSignal,
): Promise<MeasurementReport[]> {
  const body = await apiRequest<unknown>(`/api/image/${encodeURIComponent(itemUid)}/reported-annotations`, {
    signal,
  });
  return reportedAnnotationsResponseSchema.parse(body).reports;
}

/** The study's reports with measurements; a study's files do not change, so one read serves the page. */
export function useReportedAnnotations(itemUid: string) {
  return useQuery({
    queryKey: reportedAnnotationsQueryKey(itemUid),
    queryFn: ({ signal }) => fetchReportedAnnotations(itemUid, signal),
    staleTime: Infinity,
    // A share link reads nothing of the archive's API beyond its DICOMweb.
    enabled: !dicomwebAccess().isShared,
  });
}
