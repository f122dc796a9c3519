import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  namesAnotherPatient,
  peopleInFiles,
  type ChosenPatient,
  type PersonInFiles,
  type UploadStudyBody,
  type UploadStudyResponse,
} from '@ra/shared';
import { ApiError } from '../../../lib/api-client';
import { waitForBatch, type BatchFile, type UploadBatch } from '../../../lib/uploads/upload-batch';
import { useUploadBatch } from '../../../lib/uploads/use-upload-batch';
import { patientMismatchOf, submitStudy } from '../../../lib/api/upload-study';
import { bundleDicomFiles } from '../../../lib/uploads/dicom-bundle';
import { readDicomPatients } from '../../../lib/uploads/read-dicom-patients';

export type StudyStep =
  | { name: 'idle' }
  | { name: 'checking' }
  | { name: 'uploading' }
  | { name: 'filing' }
  /** The files name someone else: found in their headers here (before upload) or by the server. */
  | { name: 'mismatch'; found: PersonInFiles[]; isBeforeUpload: boolean }
  | { name: 'filed'; result: UploadStudyResponse }
  | { name: 'not-filed' }
  | { name: 'not-sent' };

type StudyFields = Omit<UploadStudyBody, 'uploads'>;

/** Uploaded, waiting to be filed once the user confirms. */
interface Pending {
  body: UploadStudyBody;
  batch: UploadBatch;
}

/** Checked here and not sent, waiting for the user to confirm. */
interface Unsent {
  files: BatchFile[];
  fields: StudyFields;
}

/** Whether the server refused the uploads themselves (path `uploads`, or one of them, `uploads.3`). */
function isAboutUploads(error: ApiError): boolean {
  const path = (error.body as { errors?: { path?: unknown }[] } | undefined)?.errors?.[0]?.path;
  return typeof path === 'string' && (path === 'uploads' || path.startsWith('uploads.'));
}

/**
 * The people the DICOM files (not ZIPs: the server reads inside those) name in their headers, read
 * here, when any of them is not `patient`; null when all are, or none says.
 */
async function otherPeopleNamed(files: BatchFile[], patient: ChosenPatient): Promise<PersonInFiles[] | null> {
  const { found } = await readDicomPatients(
    files.filter((file) => file.purpose === 'dicom').map((file) => file.file),
  );
  return found.some((person) => namesAnotherPatient(person, patient)) ? peopleInFiles(found) : null;
}

/**
 * A DICOM study's way in: the files' headers checked against the chosen patient here, before a
 * byte is sent; every file uploaded (one batch), then filed under the patient with upload-study.
 * When the files name someone else (here, or as the server finds), they are sent or filed only once
 * the user confirms. The server checks again whatever was confirmed here: it is the authority.
 */
export function useStudyUpload(owner: string, onFiled: () => void) {
  const queryClient = useQueryClient();
  const upload = useUploadBatch(owner);
  const [step, setStep] = useState<StudyStep>({ name: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [unsent, setUnsent] = useState<Unsent | null>(null);

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
        setStep({ name: 'mismatch', found: mismatch.found, isBeforeUpload: false });
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

  async function send(files: BatchFile[], fields: StudyFields) {
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

  /** `patient` as the page knows them; without it (the list has not come) the server alone checks. */
  async function start(files: BatchFile[], fields: StudyFields, patient?: ChosenPatient) {
    setError(null);
    if (patient) {
      setStep({ name: 'checking' });
      const found = await otherPeopleNamed(files, patient);
      if (found) {
        setUnsent({ files, fields });
        setStep({ name: 'mismatch', found, isBeforeUpload: true });
        return;
      }
    }
    await send(files, fields);
  }

  function confirmMismatch() {
    if (unsent) {
      setUnsent(null);
      // The names inside ZIPs were not read here, so not seen: the server asks about them all.
      const hasZip = unsent.files.some((file) => file.purpose === 'dicom-zip');
      void send(unsent.files, { ...unsent.fields, confirm_patient_mismatch: !hasZip });
    } else if (pending) {
      void file({ ...pending, body: { ...pending.body, confirm_patient_mismatch: true } });
    }
  }

  function cancelMismatch() {
    if (unsent) {
      setUnsent(null);
      setStep({ name: 'not-sent' });
      return;
    }
    setPending(null);
    upload.reset();
    setStep({ name: 'not-filed' });
  }

  /** A new choice of files: what was shown of the last one goes. */
  function clear() {
    setUnsent(null);
    upload.reset();
    setError(null);
    setStep({ name: 'idle' });
  }

  return { step, error, upload, start, confirmMismatch, cancelMismatch, clear };
}
