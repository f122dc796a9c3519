import { useQuery } from '@tanstack/react-query';
import type { Radiologist } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function useRadiologists() {
  return useQuery({
    queryKey: ['radiologists'],
    queryFn: async () =>
      (
        await apiRequest<{ radiologists: Radiologist[] }>('/api/user/radiologists', {
          auth: false,
          // The server lets browsers keep this list a minute, but after a patient rates someone the
          // app refetches it and must show the new average: always ask the server again.
          cache: 'no-cache',
        })
      ).radiologists,
    staleTime: 5 * 60_000,
  });
}
