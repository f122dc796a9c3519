import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { useQueryClient } from '@tanstack/react-query';
import { LIMITS } from '@ra/shared';
import { ApiError } from '../../../lib/api-client';
import { updateNote } from '../api/image';

/** The signed-in author's own note on an image, prefilled and saved in place. */
export function NoteEditor({
  imageUid,
  initialNote,
  submitLabel,
}: {
  imageUid: string;
  initialNote: string;
  submitLabel: string;
}) {
  const queryClient = useQueryClient();
  const [note, setNote] = useState(initialNote);
  const [isSaving, setIsSaving] = useState(false);

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    setIsSaving(true);
    try {
      await updateNote(imageUid, { note });
      window.alert('Note updated successfully!');
      await queryClient.invalidateQueries({ queryKey: ['image', imageUid] });
    } catch (err) {
      window.alert(err instanceof ApiError ? err.message : 'Error updating note');
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
      <Button type="submit" disabled={isSaving}>
        {isSaving ? 'Saving…' : submitLabel}
      </Button>
    </Form>
  );
}
