import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { LIMITS, type KeyImage } from '@ra/shared';
import { ApiError } from '../../../lib/api-client';
import { updateNote } from '../api/image';
import { KeyImageLinks } from './KeyImageLinks';
import { useToasts } from '../../../components/toasts/toast-context';

/**
 * The signed-in author's own note on an image, prefilled and saved in place; on a study, with the
 * key images marked in the viewer.
 */
export function NoteEditor({
  imageUid,
  initialNote,
  submitLabel,
  keyImages,
  onRemoveKeyImage,
}: {
  imageUid: string;
  initialNote: string;
  submitLabel: string;
  /** Studies only: saved with the note (raster images have none). */
  keyImages?: readonly KeyImage[];
  onRemoveKeyImage?: (keyImage: KeyImage) => void;
}) {
  const queryClient = useQueryClient();
  const toasts = useToasts();
  const [note, setNote] = useState(initialNote);
  const [isSaving, setIsSaving] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setIsSaving(true);
    try {
      await updateNote(imageUid, keyImages ? { note, key_images: [...keyImages] } : { note });
      toasts.show({ variant: 'success', message: 'Note updated successfully!' });
      await queryClient.invalidateQueries({ queryKey: ['image', imageUid] });
    } catch (err) {
      toasts.show({
        variant: 'danger',
        message: err instanceof ApiError ? err.message : 'Error updating note',
      });
    } finally {
      setIsSaving(false);
    }
  }

  return (
    <Form onSubmit={(event) => void handleSubmit(event)} className="mt-3">
      <Form.Group className="mb-2" controlId="note-editor">
        <Form.Label>Notes</Form.Label>
        <Form.Control
          as="textarea"
          rows={5}
          maxLength={LIMITS.text}
          value={note}
          onChange={(event) => setNote(event.target.value)}
        />
      </Form.Group>
      {keyImages && (
        <div className="mb-2">
          <p className="small text-body-secondary mb-1" id="note-key-images-hint">
            {keyImages.length === 0
              ? 'No key images. Mark the images your note refers to in the viewer (k).'
              : `Key images of your note (${keyImages.length}), saved with it:`}
          </p>
          <KeyImageLinks itemUid={imageUid} keyImages={keyImages} onRemove={onRemoveKeyImage} />
        </div>
      )}
      <Button type="submit" disabled={isSaving}>
        {isSaving ? 'Saving…' : submitLabel}
      </Button>
    </Form>
  );
}
