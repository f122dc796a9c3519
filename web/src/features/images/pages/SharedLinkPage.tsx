import { useEffect, useId, useLayoutEffect, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import { useParams } from 'react-router';
import { DOWNLOAD_PATHS, SHARE_ACCESS_CODE_HEADER, SHARE_NOT_AVAILABLE, type OpenedShare } from '@ra/shared';
import { DownloadButton } from '../../../components/DownloadButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { StudyFacts } from '../../../components/StudyFacts';
import { ApiError, messageOf } from '../../../lib/api-client';
import { openShare } from '../../../lib/api/shares';
import { formatBirthDate, formatDateTime } from '../../../lib/dates';
import { pointDicomwebAtShare } from '../../../lib/dicomweb';
import { ImageStage } from '../components/ImageStage';
import { RasterImageViewer } from '../components/RasterImageViewer';
import { StudyViewer } from '../components/StudyViewer';

type LinkState =
  | { kind: 'loading' }
  | { kind: 'not-available' }
  | { kind: 'failed' }
  | { kind: 'needs-code'; error: string | null; isChecking: boolean }
  | { kind: 'opened'; share: OpenedShare; accessCode: string | null };

function NotAvailable() {
  return (
    <Container className="py-5">
      <h1 className="h3">{SHARE_NOT_AVAILABLE}</h1>
      <p className="text-body-secondary">
        It may have expired or been revoked. Ask the person who shared it with you for a new link.
      </p>
    </Container>
  );
}

function AccessCodeForm({
  error,
  isChecking,
  onSubmit,
}: {
  error: string | null;
  isChecking: boolean;
  onSubmit: (code: string) => void;
}) {
  const id = useId();
  const [code, setCode] = useState('');
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit(code);
  };
  return (
    <Container className="py-5" style={{ maxWidth: '28rem' }}>
      <h1 className="h3 mb-3">Shared medical images</h1>
      <p>This link is protected. Enter the access code you were given.</p>
      {/* Bootstrap's alert has role="alert": read out as soon as it appears. */}
      {error && <Alert variant="danger">{error}</Alert>}
      <Form noValidate onSubmit={handleSubmit}>
        <Form.Group className="mb-3" controlId={`${id}-code`}>
          <Form.Label>Access code</Form.Label>
          <Form.Control
            inputMode="numeric"
            autoComplete="off"
            autoFocus
            maxLength={12}
            value={code}
            onChange={(event) => setCode(event.target.value.trim())}
            required
          />
        </Form.Group>
        <Button type="submit" disabled={isChecking || code === ''}>
          {isChecking ? 'Checking…' : 'Open'}
        </Button>
      </Form>
    </Container>
  );
}

/**
 * The shared item, read-only: the study in the viewer reading the link's DICOMweb, or the image;
 * with the download of its ZIP when the link allows it.
 */
function SharedItem({
  token,
  share,
  accessCode,
}: {
  token: string;
  share: OpenedShare;
  accessCode: string | null;
}) {
  const { item, patient } = share;
  const [isPointed, setIsPointed] = useState(false);
  // Every DICOMweb request of the page goes to the link's root with its code until the page closes.
  useLayoutEffect(() => {
    const pointBack = pointDicomwebAtShare(share.dicomweb_root, accessCode);
    setIsPointed(true);
    return pointBack;
  }, [share.dicomweb_root, accessCode]);
  return (
    <Container className="py-4">
      <Alert variant="info" data-testid="share-banner">
        <strong>{patient.full_name}</strong>
        {patient.dob && ` · born ${formatBirthDate(patient.dob)}`} · shared with you until{' '}
        {formatDateTime(share.expires_at)}. {share.allow_download ? 'You may download a copy.' : 'View only.'}
      </Alert>
      {share.allow_download && (
        <DownloadButton
          className="mb-3"
          path={DOWNLOAD_PATHS.shared(token)}
          label="Download the images (ZIP)"
          fallbackName="shared-images.zip"
          request={{
            auth: false,
            headers: accessCode ? { [SHARE_ACCESS_CODE_HEADER]: accessCode } : {},
          }}
          notFoundMessage={SHARE_NOT_AVAILABLE}
        />
      )}
      {isPointed && item.study && (
        <>
          <StudyFacts study={item.study} isCompact={false} className="mb-3" />
          <StudyViewer
            itemUid={item.uid}
            filing={item}
            study={item.study}
            patientName={patient.full_name}
            focus={null}
          >
            <ImageStage image={item} />
          </StudyViewer>
        </>
      )}
      {isPointed && !item.study && (
        <RasterImageViewer image={item}>
          <ImageStage image={item} />
        </RasterImageViewer>
      )}
    </Container>
  );
}

/**
 * `/s/:token`: a share link opened without an account. It asks for the access code when the link
 * has one, then shows who and until when, and the item read-only; any link that cannot be opened
 * (unknown, expired, revoked, locked) says only that it is not available.
 */
export function SharedLinkPage() {
  const { token = '' } = useParams();
  const [state, setState] = useState<LinkState>({ kind: 'loading' });

  async function tryOpen(accessCode: string | null) {
    try {
      const answer = await openShare(token, accessCode);
      setState(
        'needs_access_code' in answer
          ? { kind: 'needs-code', error: null, isChecking: false }
          : { kind: 'opened', share: answer, accessCode },
      );
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        setState({ kind: 'not-available' });
      } else if (err instanceof ApiError && err.status === 401) {
        setState({ kind: 'needs-code', error: messageOf(err.body), isChecking: false });
      } else if (err instanceof ApiError && err.status === 429) {
        setState({
          kind: 'needs-code',
          error: 'Too many tries. Wait a minute and try again.',
          isChecking: false,
        });
      } else {
        setState({ kind: 'failed' });
      }
    }
  }

  useEffect(() => {
    void tryOpen(null);
    // Opened once per token; tryOpen only reads the token.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [token]);

  switch (state.kind) {
    case 'loading':
      return <PageSpinner label="Opening the shared link…" />;
    case 'not-available':
      return <NotAvailable />;
    case 'failed':
      return (
        <Container className="py-5">
          <Alert variant="danger">The shared link could not be opened. Try again in a moment.</Alert>
        </Container>
      );
    case 'needs-code':
      return (
        <AccessCodeForm
          error={state.error}
          isChecking={state.isChecking}
          onSubmit={(code) => {
            setState({ kind: 'needs-code', error: null, isChecking: true });
            void tryOpen(code);
          }}
        />
      );
    case 'opened':
      return <SharedItem token={token} share={state.share} accessCode={state.accessCode} />;
  }
}
