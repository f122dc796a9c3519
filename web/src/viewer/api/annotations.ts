import { useQuery } from '@tanstack/react-query';
import {
  annotationListSchema,
  saveAnnotationResponseSchema,
  type Annotation,
  type SaveAnnotationBody,
} from '@ra/shared';
import { apiRequest } from '../../lib/api-client';

function annotationsPath(itemUid: string, annotationUid?: string): string {
  const list = `/api/image/${encodeURIComponent(itemUid)}/annotations`;
  return annotationUid === undefined ? list : `${list}/${encodeURIComponent(annotationUid)}`;
}

/** The query key of an item's annotations, to invalidate after saving or deleting one. */
export function annotationsQueryKey(itemUid: string) {
  return ['annotations', itemUid] as const;
}

/** The caller's annotations of an item, and the analysing radiologists' where the caller may see them. */
export async function fetchAnnotations(itemUid: string, signal?: AbortSignal): Promise<Annotation[]> {
  const body = await apiRequest<unknown>(annotationsPath(itemUid), { signal });
  return annotationListSchema.parse(body).annotations;
}

export function useAnnotations(itemUid: string | null) {
  return useQuery({
    queryKey: annotationsQueryKey(itemUid ?? ''),
    queryFn: ({ signal }) => fetchAnnotations(itemUid!, signal),
    enabled: Boolean(itemUid),
  });
}

/** Creates or replaces the caller's annotation; the client chooses its uid (a UUID). */
export async function saveAnnotation(
  itemUid: string,
  annotationUid: string,
  body: SaveAnnotationBody,
): Promise<Annotation> {
  const answer = await apiRequest<unknown>(annotationsPath(itemUid, annotationUid), { method: 'PUT', body });
  return saveAnnotationResponseSchema.parse(answer).annotation;
}

export async function deleteAnnotation(itemUid: string, annotationUid: string): Promise<void> {
  await apiRequest<undefined>(annotationsPath(itemUid, annotationUid), { method: 'DELETE' });
}
