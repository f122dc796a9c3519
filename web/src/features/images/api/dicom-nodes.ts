import { useQuery } from '@tanstack/react-query';
import type { DicomNodeList, SendStudyResponse } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

/** The signed-in physician's registered DICOM nodes (docs/api.md §12.6). */
export function useDicomNodes() {
  return useQuery({
    queryKey: ['dicom-nodes'],
    queryFn: () => apiRequest<DicomNodeList>('/api/user/dicom-nodes'),
  });
}

/** Queues sending a study to one of the physician's nodes; the outcome arrives as a notification. */
export function sendStudy(itemUid: string, aeTitle: string): Promise<SendStudyResponse> {
  return apiRequest<SendStudyResponse>(`/api/image/${encodeURIComponent(itemUid)}/send`, {
    method: 'POST',
    body: { ae_title: aeTitle },
  });
}
