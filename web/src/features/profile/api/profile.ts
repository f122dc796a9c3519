import { useQuery } from '@tanstack/react-query';
import type { ProfileResponse, UpdateProfileBody } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export const PROFILE_KEY = ['profile'];

/** How often to look again while a new picture's crop is being made in the background. */
const PROCESSING_POLL_MS = 2000;

/** The signed-in user's profile and care team; polled until a new picture is ready. */
export function useProfile() {
  return useQuery({
    queryKey: PROFILE_KEY,
    queryFn: () => apiRequest<ProfileResponse>('/api/user/profile'),
    refetchInterval: (query) =>
      query.state.data?.profile.profile_image_processing ? PROCESSING_POLL_MS : false,
  });
}

/** Changes only the fields sent. */
export function updateProfile(body: UpdateProfileBody): Promise<{ success: true }> {
  return apiRequest('/api/user/profile', { method: 'PUT', body });
}
