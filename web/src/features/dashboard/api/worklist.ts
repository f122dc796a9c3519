import { useQuery } from '@tanstack/react-query';
import type { Worklist } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export const WORKLIST_QUERY_KEY = ['worklist'] as const;

/** The signed-in radiologist's paid requests, waiting ones first (docs/api.md §13.2). */
export function getWorklist(): Promise<Worklist> {
  return apiRequest<Worklist>('/api/user/worklist');
}

export function useWorklist() {
  return useQuery({ queryKey: WORKLIST_QUERY_KEY, queryFn: getWorklist });
}
