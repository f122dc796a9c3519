import type { RateBody } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function rateRadiologist(body: RateBody): Promise<{ success: true; msg: string }> {
  return apiRequest('/api/user/rate', { method: 'POST', body });
}
