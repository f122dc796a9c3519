import { useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { UPLOAD_LIMITS } from '@ra/shared';
import { ProfilePicture } from '../../../components/ProfilePicture';
import { useObjectUrl } from '../../../lib/use-object-url';

const ACCEPTED_TYPES = 'image/png,image/jpeg,image/webp,image/gif,image/tiff';
const TOO_LARGE = 'The picture must be at most 10 MB.';

/**
 * 'Change Picture' with a preview in the place of the photo, and 'Remove Picture' for someone who
 * has one. Files over the upload limit are refused here, before any bytes are sent.
 */
export function PictureField({
  savedUrl,
  file,
  isRemoving,
  disabled,
  onFileChange,
  onRemove,
}: {
  savedUrl: string | null;
  file: File | null;
  isRemoving: boolean;
  disabled: boolean;
  onFileChange: (file: File | null) => void;
  onRemove: () => void;
}) {
  const preview = useObjectUrl(file);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);

  function clearInput() {
    if (input.current) {
      input.current.value = '';
    }
  }

  function handleChange(event: React.ChangeEvent<HTMLInputElement>) {
    const chosen = event.target.files?.[0] ?? null;
    if (chosen && chosen.size > UPLOAD_LIMITS.profile) {
      setError(TOO_LARGE);
      clearInput();
      onFileChange(null);
      return;
    }
    setError(null);
    onFileChange(chosen);
  }

  function handleRemove() {
    setError(null);
    clearInput();
    onRemove();
  }

  const shownUrl = preview ?? (isRemoving ? null : savedUrl);
  return (
    <div className="mb-4">
      <div className="d-flex flex-wrap align-items-center gap-3 mb-3">
        <ProfilePicture
          url={shownUrl}
          alt={preview ? 'Preview of your new picture' : 'Your profile picture'}
          className="rounded-circle"
        />
        {savedUrl && (
          <Button variant="outline-danger" size="sm" onClick={handleRemove} disabled={disabled}>
            Remove Picture
          </Button>
        )}
      </div>
      {isRemoving && !file && (
        <p className="small text-body-secondary" aria-live="polite">
          Your picture will be removed when you save.
        </p>
      )}
      <Form.Group controlId="profile-picture">
        <Form.Label>Change Picture</Form.Label>
        <Form.Control
          ref={input}
          type="file"
          accept={ACCEPTED_TYPES}
          disabled={disabled}
          onChange={handleChange}
          isInvalid={Boolean(error)}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'profile-picture-error' : undefined}
        />
        <Form.Control.Feedback type="invalid" id="profile-picture-error">
          {error}
        </Form.Control.Feedback>
      </Form.Group>
    </div>
  );
}
