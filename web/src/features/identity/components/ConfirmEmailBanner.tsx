import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { useAuth } from '../../../app/auth/auth-context';
import { ApiError } from '../../../lib/api-client';
import { resendEmailConfirmation } from '../api/verify-email';

/** Shown to a signed-in user who has not opened the confirmation link yet; their archive stays empty until then. */
export function ConfirmEmailBanner() {
  const { user } = useAuth();
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'limited' | 'failed'>('idle');
  if (!user || user.email_verified) {
    return null;
  }

  async function handleResend() {
    setState('sending');
    try {
      await resendEmailConfirmation();
      setState('sent');
    } catch (err) {
      setState(err instanceof ApiError && err.status === 429 ? 'limited' : 'failed');
    }
  }

  return (
    <Alert
      variant="warning"
      className="mb-0 rounded-0 text-center"
      role="region"
      aria-label="Email confirmation"
    >
      Please confirm your email address: open the link we sent to <strong>{user.email}</strong>. Until then
      your account shows no medical records.{' '}
      {state === 'sent' ? (
        <span role="status">We sent a new link.</span>
      ) : state === 'limited' ? (
        <span role="status">Too many requests. Try again later.</span>
      ) : (
        <Button
          variant="link"
          className="p-0 align-baseline"
          disabled={state === 'sending'}
          onClick={() => void handleResend()}
        >
          Send the link again
        </Button>
      )}
      {state === 'failed' && <span role="alert"> Something went wrong; please try again.</span>}
    </Alert>
  );
}
