import { useQuery } from '@tanstack/react-query';
import { fetchDicomImage } from './dicomweb';

/** One rendered picture of a series (WADO-RS …/rendered), fetched only once `isWanted` (near view). */
export function useRenderedImage(renderedPath: string, isWanted: boolean) {
  return useQuery({
    queryKey: ['dicomweb', 'rendered', renderedPath],
    queryFn: ({ signal }) => fetchDicomImage(renderedPath, signal),
    enabled: isWanted,
    // A rendered picture does not change: fetch it once while it is kept.
    staleTime: Infinity,
  });
}
