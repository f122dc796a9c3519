import type { ResetConfirmBody, ResetRequestBody } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export async function requestPasswordReset(body: ResetRequestBody): Promise<void> {
  await apiRequest('/api/auth/reset-password', { method: 'POST', body, auth: false });
}

export async function confirmPasswordReset(body: ResetConfirmBody): Promise<void> {
  await apiRequest('/api/auth/reset-password/confirm', { method: 'POST', body, auth: false });
}
