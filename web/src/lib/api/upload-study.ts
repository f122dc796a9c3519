import {
  patientMismatchSchema,
  type PatientMismatch,
  type UploadStudyBody,
  type UploadStudyResponse,
} from '@ra/shared';
import { apiRequest, ApiError } from '../api-client';

/** Files the uploaded DICOM under the patient (docs/api.md §12.1). */
export function submitStudy(body: UploadStudyBody): Promise<UploadStudyResponse> {
  return apiRequest('/api/user/upload-study', { method: 'POST', body });
}

/** The 409 answer listing every person the files name, or null for any other error. */
export function patientMismatchOf(error: unknown): PatientMismatch | null {
  if (!(error instanceof ApiError) || error.status !== 409) {
    return null;
  }
  const parsed = patientMismatchSchema.safeParse(error.body);
  return parsed.success ? parsed.data : null;
}
