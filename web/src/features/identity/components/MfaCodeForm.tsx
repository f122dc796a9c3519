import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import type { Me } from '@ra/shared';
import { useAuth } from '../../../app/auth/auth-context';
import { SubmitButton } from '../../../components/SubmitButton';
import { ApiError, messageOf } from '../../../lib/api-client';

/** The second step of sign-in: the code from the authenticator app, or one recovery code. */
export function MfaCodeForm({
  mfaToken,
  variant,
  onSignedIn,
  onRestart,
}: {
  mfaToken: string;
  variant: string;
  onSignedIn: (user: Me) => Promise<void>;
  onRestart: () => void;
}) {
  const { completeSignIn } = useAuth();
  const [isRecovery, setIsRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const fieldId = isRecovery ? 'signin-recovery-code' : 'signin-code';

  async function handleSubmit(event: React.FormEvent) {
    event.preventDefault();
    if (!value.trim()) {
      setError(isRecovery ? 'Enter one of your recovery codes.' : 'Enter the 6-digit code from your app.');
      return;
    }
    setIsBusy(true);
    setError(null);
    try {
      const user = await completeSignIn(
        isRecovery ? { mfa_token: mfaToken, recovery_code: value } : { mfa_token: mfaToken, code: value },
      );
      await onSignedIn(user);
    } catch (err) {
      setError(err instanceof ApiError && err.status < 500 ? messageOf(err.body) : 'Something went wrong');
      setValue('');
    } finally {
      setIsBusy(false);
    }
  }

  return (
    <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
      <p>Two-factor sign-in is on for this account.</p>
      {error && (
        <Alert variant="danger" id={`${fieldId}-error`}>
          {error}
        </Alert>
      )}
      <Form.Group className="mb-3" controlId={fieldId}>
        <Form.Label>{isRecovery ? 'Recovery code' : 'Authentication code'}</Form.Label>
        <Form.Control
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoComplete="one-time-code"
          inputMode={isRecovery ? 'text' : 'numeric'}
          autoFocus
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${fieldId}-error` : `${fieldId}-help`}
        />
        <Form.Text id={`${fieldId}-help`}>
          {isRecovery
            ? 'Each recovery code works once.'
            : 'The 6-digit code your authenticator app shows for Radiology Archive.'}
        </Form.Text>
      </Form.Group>
      <SubmitButton isBusy={isBusy} variant={variant}>
        Verify
      </SubmitButton>
      <div className="d-flex justify-content-between mt-3">
        <Button
          variant="link"
          className="p-0"
          onClick={() => {
            setIsRecovery(!isRecovery);
            setValue('');
            setError(null);
          }}
        >
          {isRecovery ? 'Use the code from your app' : 'Use a recovery code'}
        </Button>
        <Button variant="link" className="p-0" onClick={onRestart}>
          Start again
        </Button>
      </div>
    </Form>
  );
}
