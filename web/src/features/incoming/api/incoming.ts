import { useQuery } from '@tanstack/react-query';
import type { AssignIncomingBody, AssignIncomingResponse, IncomingList } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export const INCOMING_QUERY_KEY = ['incoming'] as const;

/** The studies sent to the signed-in physician without a patient, newest first (docs/api.md §12.3). */
export function getIncoming(): Promise<IncomingList> {
  return apiRequest<IncomingList>('/api/user/incoming');
}

export function useIncoming() {
  return useQuery({ queryKey: INCOMING_QUERY_KEY, queryFn: getIncoming });
}

/** Files one incoming study under one of the physician's patients. */
export function assignIncoming(uid: string, body: AssignIncomingBody): Promise<AssignIncomingResponse> {
  return apiRequest<AssignIncomingResponse>(`/api/user/incoming/${encodeURIComponent(uid)}/assign`, {
    method: 'POST',
    body,
  });
}
