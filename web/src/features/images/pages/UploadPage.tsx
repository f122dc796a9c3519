import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import Spinner from 'react-bootstrap/Spinner';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { displayName, LIMITS } from '@ra/shared';
import { useAuth } from '../../../app/auth/auth-context';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { BatchUploadProgress } from '../../../components/BatchUploadProgress';
import { UploadProgress } from '../../../components/UploadProgress';
import { ApiError } from '../../../lib/api-client';
import { imageViewPath, PATHS } from '../../../lib/paths';
import type { ChosenFile } from '../../../lib/uploads/file-kind';
import { useObjectUrl } from '../../../lib/use-object-url';
import { useUploadTask } from '../../../lib/uploads/use-upload-task';
import { usePatientChoices } from '../../../lib/api/patient-choices';
import { useRadiologists } from '../../../lib/api/radiologists';
import { submitImage } from '../api/upload-image';
import { DicomSelectionSummary } from '../components/DicomSelectionSummary';
import { PatientMismatchGuard } from '../../../components/PatientMismatchGuard';
import { StudyFiledSummary } from '../components/StudyFiledSummary';
import { UploadFileChooser } from '../components/UploadFileChooser';
import { sortChosenFiles, type UploadSelection } from '../components/upload-selection';
import { useStudyUpload } from '../components/use-study-upload';
import { useToasts } from '../../../components/toasts/toast-context';

const NOT_AUTHORIZED = 'You are not authorized to view this page.';

export function UploadPage() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const isAllowed = user?.role === 'Physician' || user?.role === 'Radiologist';
  const patients = usePatientChoices();
  const radiologists = useRadiologists();
  const [patient, setPatient] = useState(params.get('patient') ?? '');
  const [selection, setSelection] = useState<UploadSelection>({ kind: 'none' });
  const [isReadingFiles, setIsReadingFiles] = useState(false);
  // A new chooser clears the file inputs once the upload is done.
  const [chooserKey, setChooserKey] = useState(0);
  const file = selection.kind === 'image' ? selection.file : null;
  const preview = useObjectUrl(file);
  const [notes, setNotes] = useState('');
  const [recommendation, setRecommendation] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const upload = useUploadTask('image');
  const savedUrl = useRef<string | null>(null);
  // Reading a large choice takes a moment: only the latest choice counts.
  const latestChoice = useRef(0);
  const study = useStudyUpload(user?.uid ?? '', clearForm);
  const toasts = useToasts();

  function clearForm() {
    setSelection({ kind: 'none' });
    setNotes('');
    setRecommendation('');
    setChooserKey((key) => key + 1);
  }

  useEffect(() => {
    if (user && !isAllowed) {
      toasts.show({ variant: 'danger', message: NOT_AUTHORIZED });
      void navigate(PATHS.home, { replace: true });
    }
  }, [user, isAllowed, navigate, toasts]);

  // When the bytes are on the server, record the image with its notes.
  const finishedUrl = upload.snapshot?.state === 'success' ? upload.snapshot.url : null;
  useEffect(() => {
    if (!finishedUrl || savedUrl.current === finishedUrl) {
      return;
    }
    savedUrl.current = finishedUrl;
    setIsSaving(true);
    submitImage({ patient, notes, url: finishedUrl, recommendation: recommendation || null })
      .then(async ({ uid }) => {
        await queryClient.invalidateQueries({ queryKey: ['patients'] });
        await queryClient.invalidateQueries({ queryKey: ['images', patient] });
        toasts.show({
          variant: 'success',
          message: 'Image uploaded successfully!',
          link: { to: imageViewPath(uid), label: 'View the image' },
        });
        clearForm();
        upload.reset();
      })
      .catch((err: unknown) =>
        setError(err instanceof ApiError ? err.message : 'The image could not be saved.'),
      )
      .finally(() => setIsSaving(false));
  }, [finishedUrl, patient, notes, recommendation, queryClient, upload, toasts]);

  if (!user || !isAllowed) {
    return null;
  }
  const patientList = patients.data?.pages.flatMap((page) => page.patients) ?? [];
  const chosenPatient = patientList.find((p) => p.uid === patient);
  const isBusy =
    (upload.snapshot !== null &&
      ['running', 'pausing', 'paused', 'canceling'].includes(upload.snapshot.state)) ||
    ['checking', 'uploading', 'filing', 'mismatch'].includes(study.step.name);
  const hasFiles = Boolean(file) || selection.kind === 'dicom';
  const canSubmit = Boolean(patient) && hasFiles && !isBusy && !isSaving && !isReadingFiles;

  async function handleChoose(chosen: ChosenFile[]) {
    const choice = ++latestChoice.current;
    setError(null);
    study.clear();
    setIsReadingFiles(true);
    const sorted = await sortChosenFiles(chosen);
    if (choice === latestChoice.current) {
      setSelection(sorted);
      setIsReadingFiles(false);
    }
  }

  function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!patient) {
      return;
    }
    setError(null);
    if (selection.kind === 'dicom') {
      // The page checks the files' patients against the chosen one's name and birth date before
      // sending anything; without them (the list has not come) the server's check alone stands.
      const chosen = chosenPatient && {
        firstName: chosenPatient.first_name,
        lastName: chosenPatient.last_name,
        dob: chosenPatient.dob,
      };
      void study.start(selection.files, { patient, notes, recommendation: recommendation || null }, chosen);
      return;
    }
    if (!file) {
      return;
    }
    savedUrl.current = null;
    upload.start(file);
  }

  return (
    <Container className="py-5">
      <Card className="mx-auto shadow-sm" style={{ maxWidth: '44rem' }}>
        <Card.Body className="p-4">
          <h1 className="h3 mb-4">Medical Image Upload</h1>
          {patients.isPending && <PageSpinner label="Loading patients…" />}
          {patients.isError && <Alert variant="danger">Your patients could not be loaded.</Alert>}
          {patients.isSuccess && patientList.length === 0 && (
            <Alert variant="info">You have no patients</Alert>
          )}
          <Form onSubmit={handleSubmit}>
            <Form.Group className="mb-3" controlId="upload-patient">
              <Form.Label>Patient</Form.Label>
              <Form.Select
                value={patient}
                onChange={(event) => setPatient(event.target.value)}
                disabled={isBusy}
              >
                <option value="">Choose a patient</option>
                {patientList.map((p) => (
                  <option key={p.uid} value={p.uid}>
                    {p.first_name} {p.last_name} ({p.email})
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            <UploadFileChooser
              key={chooserKey}
              disabled={isBusy}
              onChoose={(chosen) => void handleChoose(chosen)}
            />
            {isReadingFiles && (
              <p role="status" className="small">
                Reading the chosen files…
              </p>
            )}
            {selection.kind === 'refused' && <Alert variant="warning">{selection.message}</Alert>}
            {selection.kind === 'dicom' && (
              <DicomSelectionSummary files={selection.files} skipped={selection.skipped} />
            )}
            {preview && <img src={preview} alt="Preview of the chosen image" className="thumbnail mb-3" />}
            <Form.Group className="mb-3" controlId="upload-notes">
              <Form.Label>Notes</Form.Label>
              <Form.Control
                as="textarea"
                rows={5}
                maxLength={LIMITS.text}
                value={notes}
                onChange={(event) => setNotes(event.target.value)}
                disabled={isBusy}
              />
            </Form.Group>
            <Form.Group className="mb-3" controlId="upload-radiologist">
              <Form.Label>Recommended radiologist (optional)</Form.Label>
              <Form.Select
                value={recommendation}
                onChange={(event) => setRecommendation(event.target.value)}
                disabled={isBusy}
              >
                <option value="">No recommendation</option>
                {radiologists.data?.map((r) => (
                  <option key={r.uid} value={r.uid}>
                    {displayName(r)} — {r.expertise}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            <Button type="submit" disabled={!canSubmit}>
              {isSaving ? 'Saving…' : 'Complete Upload'}
            </Button>
          </Form>
          {upload.task && upload.snapshot && <UploadProgress task={upload.task} snapshot={upload.snapshot} />}
          {study.upload.batch && study.upload.snapshot && (
            <BatchUploadProgress batch={study.upload.batch} snapshot={study.upload.snapshot} />
          )}
          {study.step.name === 'checking' && (
            <div role="status" className="mt-3">
              <Spinner animation="border" size="sm" aria-hidden="true" className="me-2" />
              Reading the patients the files name…
            </div>
          )}
          {study.step.name === 'filing' && (
            <p role="status" className="mt-3">
              <Spinner as="span" animation="border" size="sm" aria-hidden="true" className="me-2" />
              Filing the study…
            </p>
          )}
          {study.step.name === 'mismatch' && (
            <PatientMismatchGuard
              found={study.step.found}
              patient={chosenPatient}
              isBeforeUpload={study.step.isBeforeUpload}
              onConfirm={study.confirmMismatch}
              onCancel={study.cancelMismatch}
            />
          )}
          {study.step.name === 'not-sent' && (
            <Alert variant="info" className="mt-3">
              Nothing was sent. Choose the right patient, or other files, and Complete Upload again.
            </Alert>
          )}
          {study.step.name === 'not-filed' && (
            <Alert variant="info" className="mt-3">
              Nothing was filed. Choose the right patient and Complete Upload again: the files already
              uploaded are not sent again.
            </Alert>
          )}
          {study.step.name === 'filed' && <StudyFiledSummary result={study.step.result} />}
          {study.error && (
            <Alert variant="danger" className="mt-3">
              {study.error}
            </Alert>
          )}
          {error && (
            <Alert variant="danger" className="mt-3">
              {error}
            </Alert>
          )}
          <div className="mt-4">
            <LinkButton to={PATHS.dashboard} variant="outline-secondary">
              Back to Dashboard
            </LinkButton>
          </div>
        </Card.Body>
      </Card>
    </Container>
  );
}
