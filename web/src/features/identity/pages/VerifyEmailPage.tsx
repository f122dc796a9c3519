import { useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { Link, useSearchParams } from 'react-router';
import { EMAIL_LINK_INVALID } from '@ra/shared';
import { useAuth } from '../../../app/auth/auth-context';
import { PageSpinner } from '../../../components/PageSpinner';
import { ApiError, messageOf } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { verifyEmail } from '../api/verify-email';

type LinkKind = 'confirm' | 'change' | 'cancel';

const DONE: Record<LinkKind, string> = {
  confirm: 'Thank you: your email address is confirmed.',
  change: 'Your email address has been changed. Other browsers signed in to your account were signed out.',
  cancel:
    'The change of your email address was cancelled. If you did not ask for it, change your password now.',
};

function kindOf(params: URLSearchParams): LinkKind {
  if (params.get('change') === '1') {
    return 'change';
  }
  return params.get('cancel') === '1' ? 'cancel' : 'confirm';
}

/** Where the links of confirmation and email-change emails land (docs/api.md §5.1). */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const { user, reloadUser } = useAuth();
  const token = params.get('token') ?? '';
  const kind = kindOf(params);
  const [result, setResult] = useState<{ isError: boolean; message: string } | null>(null);
  // A link is single use: React's development double effect must not spend it twice.
  const isSent = useRef(false);

  useEffect(() => {
    if (isSent.current) {
      return;
    }
    isSent.current = true;
    verifyEmail({ token })
      .then(async () => {
        // The banner above goes once the user is reloaded: let that happen before the link below
        // appears, so the page does not move under a click.
        if (user) {
          await reloadUser();
        }
        setResult({ isError: false, message: DONE[kind] });
      })
      .catch((err: unknown) => {
        const message =
          err instanceof ApiError && err.status < 500
            ? messageOf(err.body, EMAIL_LINK_INVALID)
            : 'Something went wrong. Please try the link again.';
        setResult({ isError: true, message });
      });
  }, [token, kind, user, reloadUser]);

  return (
    <Container className="py-5">
      <Card className="auth-card mx-auto shadow-sm">
        <Card.Body className="p-4">
          <h1 className="h3 mb-4">
            {kind === 'confirm' ? 'Confirm your email address' : 'Email address change'}
          </h1>
          {result ? (
            <>
              <Alert
                variant={result.isError ? 'danger' : 'success'}
                role={result.isError ? 'alert' : 'status'}
              >
                {result.message}
              </Alert>
              <Link to={user ? PATHS.dashboard : PATHS.signIn}>
                {user ? 'Go to your dashboard' : 'Sign in'}
              </Link>
            </>
          ) : (
            <PageSpinner label="Checking the link…" />
          )}
        </Card.Body>
      </Card>
    </Container>
  );
}
