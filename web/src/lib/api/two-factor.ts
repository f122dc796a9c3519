import type { z } from 'zod';
import type {
  MfaDisableBody,
  MfaEnableBody,
  MfaSetup,
  MfaSetupBody,
  mfaEnableResponseSchema,
} from '@ra/shared';
import { apiRequest } from '../api-client';

export function setUpTwoFactor(body: MfaSetupBody): Promise<MfaSetup> {
  return apiRequest('/api/auth/mfa/totp/setup', { method: 'POST', body });
}

export function enableTwoFactor(body: MfaEnableBody): Promise<z.infer<typeof mfaEnableResponseSchema>> {
  return apiRequest('/api/auth/mfa/totp/enable', { method: 'POST', body });
}

export async function disableTwoFactor(body: MfaDisableBody): Promise<void> {
  await apiRequest('/api/auth/mfa/totp/disable', { method: 'POST', body });
}
