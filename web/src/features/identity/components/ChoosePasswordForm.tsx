import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { z } from 'zod';
import { resetConfirmBodySchema } from '@ra/shared';
import { SubmitButton } from '../../../components/SubmitButton';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { confirmPasswordReset } from '../api/reset-password';

const choosePasswordSchema = resetConfirmBodySchema
  .pick({ password: true })
  .extend({ confirm: z.string() })
  .refine((form) => form.password === form.confirm, { error: 'Passwords do not match', path: ['confirm'] });
type ChoosePasswordInput = z.input<typeof choosePasswordSchema>;

/** The page a reset or invitation link opens: choose a password with the token from the link. */
export function ChoosePasswordForm({ token, isInvite }: { token: string; isInvite: boolean }) {
  const [isDone, setIsDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const form = useForm<ChoosePasswordInput, unknown, z.output<typeof choosePasswordSchema>>({
    resolver: zodResolver(choosePasswordSchema),
    defaultValues: { password: '', confirm: '' },
  });

  const handleSubmit = form.handleSubmit(async (values) => {
    setError(null);
    try {
      await confirmPasswordReset({ token, password: values.password });
      setIsDone(true);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Something went wrong');
    }
  });

  if (isDone) {
    return (
      <div role="status">
        <h1 className="h3">Password saved</h1>
        <p>Your password has been set. You can now log in.</p>
        <Link to={PATHS.signIn}>Log in</Link>
      </div>
    );
  }
  return (
    <>
      <h1 className="h3 mb-3">{isInvite ? 'Choose your password' : 'Choose a new password'}</h1>
      {isInvite && <p>Your physician created an account for you. Choose a password to see your images.</p>}
      {error && <Alert variant="danger">{error}</Alert>}
      <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
        <TextField
          id="new-password"
          label="New password"
          type="password"
          autoComplete="new-password"
          registration={form.register('password')}
          error={form.formState.errors.password}
        />
        <TextField
          id="confirm-password"
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          registration={form.register('confirm')}
          error={form.formState.errors.confirm}
        />
        <SubmitButton isBusy={form.formState.isSubmitting}>Save password</SubmitButton>
      </Form>
    </>
  );
}
