import { useQuery } from '@tanstack/react-query';
import type { MeetRadiologist } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function useMeetOurRadiologists() {
  return useQuery({
    queryKey: ['meet-our-radiologists'],
    queryFn: async () =>
      (
        await apiRequest<{ radiologists: MeetRadiologist[] }>('/api/user/meet-our-radiologists', {
          auth: false,
        })
      ).radiologists,
  });
}
