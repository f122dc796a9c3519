import { useInfiniteQuery } from '@tanstack/react-query';
import type { PatientPage } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function usePatients() {
  return useInfiniteQuery({
    queryKey: ['patients'],
    queryFn: ({ pageParam }) =>
      apiRequest<PatientPage>(
        `/api/user/patients${pageParam ? `?cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}
