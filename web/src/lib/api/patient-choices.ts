import { useInfiniteQuery } from '@tanstack/react-query';
import type { PatientPage } from '@ra/shared';
import { apiRequest } from '../api-client';

/** The signed-in user's patients to choose from when filing, in large pages. */
export function usePatientChoices() {
  return useInfiniteQuery({
    queryKey: ['patients', 'choices'],
    queryFn: ({ pageParam }) =>
      apiRequest<PatientPage>(
        `/api/user/patients?limit=200${pageParam ? `&cursor=${encodeURIComponent(pageParam)}` : ''}`,
      ),
    initialPageParam: '',
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}
