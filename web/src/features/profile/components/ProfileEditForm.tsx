import { useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { LIMITS, type Profile, type UpdateProfileBody } from '@ra/shared';
import { UploadProgress } from '../../../components/UploadProgress';
import { ApiError } from '../../../lib/api-client';
import { useUploadTask } from '../../../lib/uploads/use-upload-task';
import { UploadFailedError, waitForUpload } from '../../../lib/uploads/wait-for-upload';
import { PROFILE_KEY, updateProfile } from '../api/profile';
import { PictureField } from './PictureField';
import { RatingChoice } from './RatingChoice';
import { UpdateEmailModal } from './UpdateEmailModal';

interface Draft {
  isRemovingPicture: boolean;
  bio: string;
  allowRatings: boolean;
}

/** The fields that differ from the saved profile, as PUT /api/user/profile takes them (without a new picture). */
function changesOf(profile: Profile, draft: Draft): UpdateProfileBody {
  const changes: UpdateProfileBody = {};
  const isStaff = profile.role === 'PHYSICIAN' || profile.role === 'RADIOLOGIST';
  if (draft.isRemovingPicture) {
    changes.profile_image_url = null;
  }
  if (isStaff && draft.bio.trim() !== profile.bio.trim()) {
    changes.bio = draft.bio.trim();
  }
  if (profile.role === 'RADIOLOGIST' && draft.allowRatings !== profile.allow_ratings) {
    changes.enableRatingSystem = draft.allowRatings;
  }
  return changes;
}

/** The field a 400 names, if any. */
function fieldOf(error: ApiError): string | undefined {
  return (error.body as { errors?: { path?: string }[] } | undefined)?.errors?.[0]?.path;
}

/** Edit mode: picture, bio, rating preference and email; saves only what changed. */
export function ProfileEditForm({
  profile,
  onCancel,
  onSaved,
}: {
  profile: Profile;
  onCancel: () => void;
  onSaved: () => void;
}) {
  const queryClient = useQueryClient();
  const upload = useUploadTask('profile');
  const [file, setFile] = useState<File | null>(null);
  const [draft, setDraft] = useState<Draft>({
    isRemovingPicture: false,
    bio: profile.bio,
    allowRatings: profile.allow_ratings,
  });
  const [isSaving, setIsSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [isEmailOpen, setIsEmailOpen] = useState(false);
  // A picture already uploaded is not sent again when only the profile update has to be retried.
  const uploaded = useRef<{ file: File; url: string } | null>(null);
  const isStaff = profile.role === 'PHYSICIAN' || profile.role === 'RADIOLOGIST';
  const changes = changesOf(profile, draft);
  const hasChanges = file !== null || Object.keys(changes).length > 0;

  function handleFileChange(chosen: File | null) {
    setFile(chosen);
    if (chosen) {
      setDraft((current) => ({ ...current, isRemovingPicture: false }));
    }
  }

  function handleRemovePicture() {
    setFile(null);
    setDraft((current) => ({ ...current, isRemovingPicture: true }));
  }

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!hasChanges || isSaving) {
      return;
    }
    setError(null);
    setIsSaving(true);
    try {
      const body = { ...changes };
      if (file) {
        const url =
          uploaded.current?.file === file ? uploaded.current.url : await waitForUpload(upload.start(file));
        if (!url) {
          // Canceled by the user: nothing to report, the form stays as it was.
          setIsSaving(false);
          return;
        }
        uploaded.current = { file, url };
        body.profile_image_url = url;
      }
      await updateProfile(body);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: PROFILE_KEY }),
        queryClient.invalidateQueries({ queryKey: ['radiologists'] }),
        queryClient.invalidateQueries({ queryKey: ['meet-our-radiologists'] }),
      ]);
      onSaved();
    } catch (err) {
      upload.reset();
      if (err instanceof ApiError && fieldOf(err) === 'profile_image_url') {
        uploaded.current = null;
      }
      setError(
        err instanceof ApiError || err instanceof UploadFailedError
          ? err.message
          : 'Your profile could not be saved.',
      );
      setIsSaving(false);
    }
  }

  return (
    <>
      <Form onSubmit={(event) => void handleSubmit(event)}>
        <PictureField
          savedUrl={profile.profile_image_url}
          file={file}
          isRemoving={draft.isRemovingPicture}
          disabled={isSaving}
          onFileChange={handleFileChange}
          onRemove={handleRemovePicture}
        />
        {isStaff && (
          <Form.Group className="mb-4" controlId="profile-bio">
            <Form.Label>Bio</Form.Label>
            <Form.Control
              as="textarea"
              rows={12}
              maxLength={LIMITS.text}
              value={draft.bio}
              disabled={isSaving}
              onChange={(event) => setDraft((current) => ({ ...current, bio: event.target.value }))}
            />
          </Form.Group>
        )}
        {profile.role === 'RADIOLOGIST' && (
          <RatingChoice
            allowRatings={draft.allowRatings}
            disabled={isSaving}
            onChange={(allowRatings) => setDraft((current) => ({ ...current, allowRatings }))}
          />
        )}
        {profile.role !== 'RADIOLOGIST' && (
          <div className="mb-4">
            <Button variant="outline-secondary" onClick={() => setIsEmailOpen(true)} disabled={isSaving}>
              Update Email
            </Button>
          </div>
        )}
        {isSaving && upload.task && upload.snapshot && (
          <UploadProgress task={upload.task} snapshot={upload.snapshot} />
        )}
        {error && (
          <Alert variant="danger" className="mt-3">
            {error}
          </Alert>
        )}
        <div className="d-flex flex-wrap gap-2 mt-3">
          <Button variant="outline-secondary" onClick={onCancel} disabled={isSaving}>
            Cancel
          </Button>
          <Button type="submit" disabled={!hasChanges || isSaving}>
            {isSaving ? 'Saving…' : 'Save Changes'}
          </Button>
        </div>
      </Form>
      {/* Outside the form: a portal's events bubble up the React tree, so its submit would save the profile. */}
      <UpdateEmailModal show={isEmailOpen} onHide={() => setIsEmailOpen(false)} />
    </>
  );
}
