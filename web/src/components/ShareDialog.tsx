import { useId, useState, type FormEvent } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import Modal from 'react-bootstrap/Modal';
import { useQueryClient } from '@tanstack/react-query';
import { createShareBodySchema, SHARE_EXPIRY_CHOICES, SHARE_EXPIRY_HOURS, type Share } from '@ra/shared';
import { useToasts } from './toasts/toast-context';
import { ApiError, messageOf } from '../lib/api-client';
import { formatDateTime } from '../lib/dates';
import { createShare, SHARES_QUERY_KEY } from '../lib/api/shares';

const FAILED = 'The link could not be created.';

function failureMessage(error: unknown): string {
  return error instanceof ApiError && error.status < 500 ? messageOf(error.body, FAILED) : FAILED;
}

/**
 * "Share" on an item's page: a dialog that makes a link anyone can open without an account (until
 * it expires or is revoked), then shows the link with a Copy button.
 */
export function ShareDialog({
  itemUid,
  show,
  onHide,
}: {
  itemUid: string;
  show: boolean;
  onHide: () => void;
}) {
  const id = useId();
  const toasts = useToasts();
  const queryClient = useQueryClient();
  const [hours, setHours] = useState<number>(SHARE_EXPIRY_HOURS.default);
  const [accessCode, setAccessCode] = useState('');
  const [allowDownload, setAllowDownload] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);
  const [created, setCreated] = useState<Share | null>(null);
  const errorId = `${id}-error`;

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = createShareBodySchema.safeParse({
      expires_in_hours: hours,
      allow_download: allowDownload,
      ...(accessCode !== '' && { access_code: accessCode }),
      ...(note.trim() !== '' && { note: note.trim() }),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? FAILED);
      return;
    }
    setError(null);
    setIsSending(true);
    try {
      setCreated(await createShare(itemUid, parsed.data));
      void queryClient.invalidateQueries({ queryKey: SHARES_QUERY_KEY });
    } catch (err) {
      setError(failureMessage(err));
    } finally {
      setIsSending(false);
    }
  }

  async function copy(url: string) {
    try {
      await navigator.clipboard.writeText(url);
      toasts.show({ message: 'The link was copied.', variant: 'success' });
    } catch {
      toasts.show({
        message: 'The link could not be copied: select it and copy it yourself.',
        variant: 'danger',
      });
    }
  }

  function handleExited() {
    setHours(SHARE_EXPIRY_HOURS.default);
    setAccessCode('');
    setAllowDownload(false);
    setNote('');
    setError(null);
    setCreated(null);
  }

  return (
    <Modal show={show} onHide={onHide} onExited={handleExited} aria-labelledby={`${id}-title`}>
      <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
        <Modal.Header closeButton>
          <Modal.Title id={`${id}-title`}>Share</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {error && (
            <Alert variant="danger" id={errorId} role="alert">
              {error}
            </Alert>
          )}
          {created ? (
            <>
              <p>
                Anyone with this link can see this item until {formatDateTime(created.expires_at)}
                {created.has_access_code ? ', once they enter the access code' : ''}.
              </p>
              <Form.Group controlId={`${id}-url`}>
                <Form.Label>Link</Form.Label>
                <InputGroup>
                  <Form.Control
                    readOnly
                    value={created.url}
                    onFocus={(event) => event.currentTarget.select()}
                  />
                  <Button variant="outline-primary" onClick={() => void copy(created.url)}>
                    Copy
                  </Button>
                </InputGroup>
              </Form.Group>
            </>
          ) : (
            <>
              <Form.Group className="mb-3" controlId={`${id}-expiry`}>
                <Form.Label>Link expires after</Form.Label>
                <Form.Select value={hours} onChange={(event) => setHours(Number(event.target.value))}>
                  {SHARE_EXPIRY_CHOICES.map((choice) => (
                    <option key={choice.hours} value={choice.hours}>
                      {choice.label}
                    </option>
                  ))}
                </Form.Select>
              </Form.Group>
              <Form.Group className="mb-3" controlId={`${id}-code`}>
                <Form.Label>Access code (optional)</Form.Label>
                <Form.Control
                  inputMode="numeric"
                  autoComplete="off"
                  maxLength={12}
                  value={accessCode}
                  onChange={(event) => setAccessCode(event.target.value.trim())}
                  aria-describedby={`${id}-code-help`}
                />
                <Form.Text id={`${id}-code-help`}>
                  4 to 12 digits. Give it to the person you share with separately.
                </Form.Text>
              </Form.Group>
              <Form.Check
                className="mb-3"
                id={`${id}-download`}
                label="Allow download"
                checked={allowDownload}
                onChange={(event) => setAllowDownload(event.target.checked)}
              />
              <Form.Group controlId={`${id}-note`}>
                <Form.Label>Note (optional)</Form.Label>
                <Form.Control
                  as="textarea"
                  rows={2}
                  maxLength={500}
                  value={note}
                  onChange={(event) => setNote(event.target.value)}
                />
              </Form.Group>
            </>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide}>
            Close
          </Button>
          {!created && (
            <Button type="submit" disabled={isSending}>
              {isSending ? 'Creating…' : 'Create link'}
            </Button>
          )}
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/** The "Share" button of an item's page and its dialog. */
export function ShareButton({ itemUid }: { itemUid: string }) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button variant="outline-primary" onClick={() => setIsOpen(true)}>
        Share
      </Button>
      <ShareDialog itemUid={itemUid} show={isOpen} onHide={() => setIsOpen(false)} />
    </>
  );
}
