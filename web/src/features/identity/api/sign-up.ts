import type { SignupBody } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function signUp(body: SignupBody): Promise<{ msg: string }> {
  return apiRequest('/api/auth/signup', { method: 'POST', body, auth: false });
}
