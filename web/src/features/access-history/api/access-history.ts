import { useInfiniteQuery } from '@tanstack/react-query';
import type { AccessHistoryPage } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

/** One page of who else opened the signed-in patient's records, newest first (docs/api.md §19). */
export function getAccessHistory(cursor: string): Promise<AccessHistoryPage> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return apiRequest<AccessHistoryPage>(`/api/user/access-history${query}`);
}

export function useAccessHistory() {
  return useInfiniteQuery({
    queryKey: ['access-history'],
    queryFn: ({ pageParam }) => getAccessHistory(pageParam),
    initialPageParam: '',
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}
