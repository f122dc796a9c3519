import { useQuery } from '@tanstack/react-query';
import type { HospitalList } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function useHospitals(enabled: boolean) {
  return useQuery({
    queryKey: ['hospitals'],
    queryFn: () => apiRequest<HospitalList>('/api/hospital/hospitals', { auth: false }),
    enabled,
    staleTime: 5 * 60_000,
  });
}
