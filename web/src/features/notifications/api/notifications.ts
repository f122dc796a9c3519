import { useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATION_POLL_MS, type MarkReadBody, type Notification } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

const KEY = ['notifications'];

/**
 * The signed-in user's notifications: fetched at start and every 20 seconds while the tab is
 * visible, and at once when it becomes visible again. The answers name patients, so the server
 * marks them `no-store` and each poll gets the full list (its ETag/304 serves clients that send
 * `If-None-Match` themselves).
 */
export function useNotifications(isSignedIn: boolean) {
  return useQuery({
    queryKey: KEY,
    queryFn: async () => (await apiRequest<Notification[] | undefined>('/api/notification/polling')) ?? [],
    enabled: isSignedIn,
    refetchInterval: NOTIFICATION_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: 'always',
    staleTime: 0,
  });
}

export function useMarkRead() {
  const queryClient = useQueryClient();
  return async (body: MarkReadBody) => {
    const result = await apiRequest<{ success: true; read: string[] }>('/api/notification/read', {
      method: 'PUT',
      body,
    });
    await queryClient.invalidateQueries({ queryKey: KEY });
    return result;
  };
}
