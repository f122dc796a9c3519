import type { RoleName } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

/** Resolves when the email belongs to an account of that role; rejects otherwise. */
export async function checkPortal(role: RoleName, email: string): Promise<void> {
  await apiRequest(`/api/auth/portal/${role}`, { method: 'POST', body: { email }, auth: false });
}
