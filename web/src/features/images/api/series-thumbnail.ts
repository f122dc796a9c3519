import { useQuery } from '@tanstack/react-query';
import { dicomwebPath, fetchDicomImage, isNotFound } from '../../../lib/dicomweb';

/** A series' thumbnail (WADO-RS …/thumbnail); a 404 means it has no picture (a structured report, say). */
export function useSeriesThumbnail(studyUid: string, seriesUid: string) {
  return useQuery({
    queryKey: ['dicomweb', 'thumbnail', studyUid, seriesUid],
    queryFn: ({ signal }) => fetchDicomImage(`${dicomwebPath(studyUid, seriesUid)}/thumbnail`, signal),
    staleTime: Infinity,
    // No picture is an answer, not a failure worth asking again; other failures get the app's one retry.
    retry: (failureCount, error) => !isNotFound(error) && failureCount < 1,
  });
}
