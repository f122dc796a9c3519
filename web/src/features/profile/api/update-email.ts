import type { z } from 'zod';
import type { UpdateEmailBody, updateEmailResponseSchema } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function updateEmail(body: UpdateEmailBody): Promise<z.infer<typeof updateEmailResponseSchema>> {
  return apiRequest('/api/user/email', { method: 'PUT', body });
}
