import { useQuery } from '@tanstack/react-query';
import type { Image, UpdateNoteBody } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function useImage(uid: string | null) {
  return useQuery({
    queryKey: ['image', uid],
    queryFn: async () => (await apiRequest<{ image: Image }>(`/api/image/${uid}`)).image,
    enabled: Boolean(uid),
    // Signed URLs last 30 minutes; fetch fresh ones well before.
    staleTime: 5 * 60_000,
    refetchInterval: (query) => (query.state.data && query.state.data.thumbnail_url === null ? 3000 : false),
  });
}

export function updateNote(uid: string, body: UpdateNoteBody): Promise<{ success: true; note: string }> {
  return apiRequest(`/api/image/${uid}`, { method: 'PATCH', body });
}
