import type { AddPatientBody } from '@ra/shared';
import { apiRequest } from '../../../lib/api-client';

export function addPatient(body: AddPatientBody): Promise<{ success: true; msg: string }> {
  return apiRequest('/api/auth/add-patient', { method: 'POST', body });
}
