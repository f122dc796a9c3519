import { useInfiniteQuery } from '@tanstack/react-query';
import type { ImagePage } from '@ra/shared';
import { apiRequest } from '../api-client';

const THUMBNAIL_POLL_MS = 3000;

/** A patient's images, newest first, page by page; polls while a thumbnail is still being made. */
export function usePatientImages(patientUid: string | undefined, options: { enabled?: boolean } = {}) {
  return useInfiniteQuery({
    queryKey: ['images', patientUid],
    queryFn: ({ pageParam }) =>
      apiRequest<ImagePage>(
        `/api/user/${patientUid}/images?limit=50${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    enabled: Boolean(patientUid) && options.enabled !== false,
    refetchInterval: (query) =>
      query.state.data?.pages.some((page) => page.images.some((image) => image.thumbnail_url === null))
        ? THUMBNAIL_POLL_MS
        : false,
  });
}
