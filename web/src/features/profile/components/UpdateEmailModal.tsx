import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { EMAIL_AND_PASSWORD_REQUIRED, updateEmailBodySchema } from '@ra/shared';
import { ApiError, messageOf } from '../../../lib/api-client';
import { updateEmail } from '../api/update-email';

type UpdateEmailForm = z.input<typeof updateEmailBodySchema>;

const FAILED = 'Failed to update email.';
const ERROR_ID = 'update-email-error';

/** The server's sentence for a refusal; anything without one (network, 5xx) gets the general message. */
function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status < 500) {
    return messageOf(error.body, FAILED);
  }
  return FAILED;
}

/** 'Update Email' for patients and physicians: the change waits for the new address to confirm it. */
export function UpdateEmailModal({ show, onHide }: { show: boolean; onHide: () => void }) {
  const [result, setResult] = useState<{ isError: boolean; message: string } | null>(null);
  const form = useForm<UpdateEmailForm, unknown, z.output<typeof updateEmailBodySchema>>({
    resolver: zodResolver(updateEmailBodySchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;
  // Both fields share one sentence when empty, so one message is shown rather than two copies.
  const isMissing = [errors.email?.message, errors.password?.message].includes(EMAIL_AND_PASSWORD_REQUIRED);
  const formError = isMissing
    ? EMAIL_AND_PASSWORD_REQUIRED
    : (errors.email?.message ?? errors.password?.message);

  const handleSubmit = form.handleSubmit(async (body) => {
    setResult(null);
    try {
      await updateEmail(body);
      // Nothing changes until the new address confirms; the old address is told meanwhile.
      setResult({
        isError: false,
        message: `We sent a link to ${body.email}. Your email address changes when you open it.`,
      });
      form.resetField('password');
    } catch (err) {
      setResult({ isError: true, message: failureMessage(err) });
    }
  });

  function handleExited() {
    form.reset();
    setResult(null);
  }

  return (
    <Modal show={show} onHide={onHide} onExited={handleExited} aria-labelledby="update-email-title">
      <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
        <Modal.Header closeButton>
          <Modal.Title id="update-email-title">Update Email</Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {formError ? (
            <Alert variant="danger" id={ERROR_ID}>
              {formError}
            </Alert>
          ) : (
            result && <Alert variant={result.isError ? 'danger' : 'success'}>{result.message}</Alert>
          )}
          <Form.Group className="mb-3" controlId="update-email-email">
            <Form.Label>New email</Form.Label>
            <Form.Control
              type="email"
              autoComplete="email"
              autoFocus
              {...form.register('email')}
              isInvalid={Boolean(errors.email)}
              aria-invalid={Boolean(errors.email)}
              aria-describedby={errors.email ? ERROR_ID : undefined}
            />
          </Form.Group>
          <Form.Group controlId="update-email-password">
            <Form.Label>Password</Form.Label>
            <Form.Control
              type="password"
              autoComplete="current-password"
              {...form.register('password')}
              isInvalid={Boolean(errors.password)}
              aria-invalid={Boolean(errors.password)}
              aria-describedby={errors.password ? ERROR_ID : undefined}
            />
          </Form.Group>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onHide}>
            Close
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            Update Email
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
