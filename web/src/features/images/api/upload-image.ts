import type { UploadImageBody } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function submitImage(body: UploadImageBody): Promise<{ success: true; uid: string }> {
  return apiRequest('/api/user/upload-image', { method: 'POST', body });
}
