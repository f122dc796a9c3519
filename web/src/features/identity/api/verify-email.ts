import type { VerifyEmailBody } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

/** Uses an emailed link: confirms an address, completes an email change or cancels one. */
export async function verifyEmail(body: VerifyEmailBody): Promise<void> {
  // With the bearer token when signed in: that browser stays signed in after an email change.
  await apiRequest('/api/auth/verify-email', { method: 'POST', body });
}

export async function resendEmailConfirmation(): Promise<void> {
  await apiRequest('/api/auth/verify-email/resend', { method: 'POST' });
}
