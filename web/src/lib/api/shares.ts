import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  createdShareSchema,
  SHARE_ACCESS_CODE_HEADER,
  shareListPageSchema,
  shareOpeningSchema,
  type CreateShareBody,
  type Share,
  type ShareListPage,
  type ShareOpening,
} from '@ra/shared';
import { apiRequest } from '../api-client';

/** Share links (docs/api.md §20): made from an item's page, listed and revoked on the Shared links page. */

export async function createShare(itemUid: string, body: CreateShareBody): Promise<Share> {
  const answer = await apiRequest<unknown>(`/api/image/${encodeURIComponent(itemUid)}/shares`, {
    method: 'POST',
    body,
  });
  return createdShareSchema.parse(answer).share;
}

export function getShares(cursor: string): Promise<ShareListPage> {
  const query = cursor ? `?cursor=${encodeURIComponent(cursor)}` : '';
  return apiRequest<unknown>(`/api/user/shares${query}`).then((body) => shareListPageSchema.parse(body));
}

export const SHARES_QUERY_KEY = ['shares'] as const;

export function useShares() {
  return useInfiniteQuery({
    queryKey: SHARES_QUERY_KEY,
    queryFn: ({ pageParam }) => getShares(pageParam),
    initialPageParam: '',
    getNextPageParam: (page) => page.next_cursor ?? undefined,
  });
}

export function useRevokeShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (shareUid: string) =>
      apiRequest<undefined>(`/api/shares/${encodeURIComponent(shareUid)}`, { method: 'DELETE' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SHARES_QUERY_KEY }),
  });
}

/** Opens a link without an account: its code (if any) in the header, never the bearer token. */
export async function openShare(token: string, accessCode: string | null): Promise<ShareOpening> {
  const answer = await apiRequest<unknown>(`/api/s/${encodeURIComponent(token)}`, {
    auth: false,
    headers: accessCode ? { [SHARE_ACCESS_CODE_HEADER]: accessCode } : {},
  });
  return shareOpeningSchema.parse(answer);
}
