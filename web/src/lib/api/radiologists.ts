import { useQuery } from '@tanstack/react-query';
import type { Radiologist } from '@ra/shared';
import { apiRequest } from '../api-client';

export function useRadiologists() {
  return useQuery({
    queryKey: ['radiologists'],
    queryFn: async () =>
      (await apiRequest<{ radiologists: Radiologist[] }>('/api/user/radiologists', { auth: false }))
        .radiologists,
    staleTime: 5 * 60_000,
  });
}
