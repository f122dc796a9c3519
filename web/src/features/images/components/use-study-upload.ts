import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { PatientMismatch, UploadStudyBody, UploadStudyResponse } from '@ra/shared';
import { ApiError } from '../../../lib/api-client';
import { waitForBatch, type BatchFile, type UploadBatch } from '../../../lib/uploads/upload-batch';
import { useUploadBatch } from '../../../lib/uploads/use-upload-batch';
import { patientMismatchOf, submitStudy } from '../api/upload-study';
import { bundleDicomFiles } from '../../../lib/uploads/dicom-bundle';

export type StudyStep =
  | { name: 'idle' }
  | { name: 'uploading' }
  | { name: 'filing' }
  | { name: 'mismatch'; found: PatientMismatch['found'] }
  | { name: 'filed'; result: UploadStudyResponse }
  | { name: 'not-filed' };

interface Pending {
  body: UploadStudyBody;
  batch: UploadBatch;
}

/** Whether the server refused the uploads themselves (path `uploads`, or one of them, `uploads.3`). */
function isAboutUploads(error: ApiError): boolean {
  const path = (error.body as { errors?: { path?: unknown }[] } | undefined)?.errors?.[0]?.path;
  return typeof path === 'string' && (path === 'uploads' || path.startsWith('uploads.'));
}

/**
 * A DICOM study's way in: every file uploaded (one batch), then filed under the patient with
 * upload-study; when the files name someone else, filed only once the user confirms.
 */
export function useStudyUpload(owner: string, onFiled: () => void) {
  const queryClient = useQueryClient();
  const upload = useUploadBatch(owner);
  const [step, setStep] = useState<StudyStep>({ name: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);

  async function file({ body, batch }: Pending) {
    setStep({ name: 'filing' });
    try {
      const result = await submitStudy(body);
      batch.forgetFinished();
      setPending(null);
      upload.reset();
      // The lists refresh in the background; what was filed is shown at once.
      void queryClient.invalidateQueries({ queryKey: ['patients'] });
      void queryClient.invalidateQueries({ queryKey: ['images', body.patient] });
      setStep({ name: 'filed', result });
      onFiled();
    } catch (err) {
      const mismatch = patientMismatchOf(err);
      if (mismatch) {
        setStep({ name: 'mismatch', found: mismatch.found });
        return;
      }
      if (err instanceof ApiError && isAboutUploads(err)) {
        // Uploads gone (expired or filed) or not DICOM: a new try sends the files again.
        batch.forgetFinished();
      }
      setPending(null);
      upload.reset();
      setError(err instanceof ApiError ? err.message : 'The study could not be filed.');
      setStep({ name: 'idle' });
    }
  }

  async function start(files: BatchFile[], fields: Omit<UploadStudyBody, 'uploads'>) {
    setError(null);
    setStep({ name: 'uploading' });
    const batch = upload.start(bundleDicomFiles(files, upload.isFinished));
    const urls = await waitForBatch(batch);
    if (!urls) {
      // Canceled: the progress says so, and the files can be sent again.
      setStep({ name: 'idle' });
      return;
    }
    const next = { body: { ...fields, uploads: urls }, batch };
    setPending(next);
    await file(next);
  }

  function confirmMismatch() {
    if (pending) {
      void file({ ...pending, body: { ...pending.body, confirm_patient_mismatch: true } });
    }
  }

  function cancelMismatch() {
    setPending(null);
    upload.reset();
    setStep({ name: 'not-filed' });
  }

  /** A new choice of files: what was shown of the last one goes. */
  function clear() {
    upload.reset();
    setError(null);
    setStep({ name: 'idle' });
  }

  return { step, error, upload, start, confirmMismatch, cancelMismatch, clear };
}
