import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import type { z } from 'zod';
import { resetRequestBodySchema } from '@ra/shared';
import { SubmitButton } from '../../../components/SubmitButton';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { requestPasswordReset } from '../api/reset-password';

type RequestForm = z.input<typeof resetRequestBodySchema>;

export function RequestResetForm() {
  const [isSent, setIsSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<RequestForm, unknown, z.output<typeof resetRequestBodySchema>>({
    resolver: zodResolver(resetRequestBodySchema),
    defaultValues: { email: '' },
  });

  const handleSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await requestPasswordReset(values);
      setIsSent(true);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Something went wrong');
    }
  });

  if (isSent) {
    return (
      <div role="status">
        <h1 className="h3">Email Sent!</h1>
        <p>
          If an account uses that address, it will receive a link to choose a new password within a few
          minutes.
        </p>
        <Link to={PATHS.home}>Back to the home page</Link>
      </div>
    );
  }
  return (
    <>
      <h1 className="h3 mb-3">Reset your password</h1>
      <p>Enter the email of your account and we will send you a link to choose a new password.</p>
      {error && <Alert variant="danger">{error}</Alert>}
      <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
        <TextField
          id="reset-email"
          label="Email"
          type="email"
          autoComplete="email"
          registration={form.register('email')}
          error={form.formState.errors.email}
        />
        <SubmitButton isBusy={form.formState.isSubmitting}>Continue</SubmitButton>
      </Form>
    </>
  );
}
