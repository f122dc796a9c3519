import { useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import Form from 'react-bootstrap/Form';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { ROLE_NAMES, signinBodySchema, type RoleName } from '@ra/shared';
import { useAuth } from '../../../app/auth/auth-context';
import { SubmitButton } from '../../../components/SubmitButton';
import { TextField } from '../../../components/TextField';
import { ApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { parseRoleName, ROLE_VARIANT } from '../../../lib/roles';
import { MfaCodeForm } from '../components/MfaCodeForm';

const signInFormSchema = signinBodySchema.pick({ email: true, password: true });
type SignInForm = z.input<typeof signInFormSchema>;

const PORTAL_REFUSED = 'Unable to login through this portal';

function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.status === 401) {
    return 'The email or password is incorrect';
  }
  if (error instanceof ApiError && error.status === 403) {
    return PORTAL_REFUSED;
  }
  if (error instanceof ApiError && error.status === 429) {
    return error.message;
  }
  return 'Something went wrong';
}

/**
 * Links to the other portals, keeping where the user was going: someone who followed a link while
 * signed out lands on the Patient portal and may be staff.
 */
function OtherPortals({ role, state }: { role: RoleName; state: unknown }) {
  return (
    <nav aria-label="Other portals" className="mt-3 pt-3 border-top small text-center">
      Not a {role.toLowerCase()}? Sign in as{' '}
      {ROLE_NAMES.filter((other) => other !== role).map((other, index) => (
        <span key={other}>
          {index > 0 && ' or '}
          <Link to={`${PATHS.signIn}?role=${other}`} state={state} replace>
            {other}
          </Link>
        </span>
      ))}
      .
    </nav>
  );
}

export function SignInPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const { signIn } = useAuth();
  const state = location.state as { role?: string; from?: string } | null;
  const role = parseRoleName(params.get('role')) ?? parseRoleName(state?.role) ?? 'Patient';
  const [error, setError] = useState<string | null>(null);
  const [mfaToken, setMfaToken] = useState<string | null>(null);

  async function goOn() {
    await navigate(state?.from ?? PATHS.dashboard, { replace: true });
  }

  const form = useForm<SignInForm, unknown, z.output<typeof signInFormSchema>>({
    resolver: zodResolver(signInFormSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  // The portal is not checked before the password: the portal check tells whether an address has
  // an account, so an unknown address and a wrong password would answer differently. The server
  // checks the role at sign-in, once the password is right.
  const handleSubmit = form.handleSubmit(async ({ email, password }) => {
    setError(null);
    try {
      const result = await signIn(email, password, role);
      if ('mfaToken' in result) {
        setMfaToken(result.mfaToken);
        return;
      }
      await goOn();
    } catch (err) {
      setError(failureMessage(err));
    }
  });

  return (
    <Container className="py-5">
      <Card className="auth-card mx-auto shadow-sm">
        <Card.Body className="p-4">
          <p className="mb-1">
            <Link to={PATHS.home}>Radiology Archive</Link>
          </p>
          <h1 className={`h3 mb-4 text-${ROLE_VARIANT[role]}`}>{role} Login</h1>
          {params.get('reason') === 'idle' && !error && (
            <Alert variant="info">
              You were signed out because nothing happened for a while. Please sign in again.
            </Alert>
          )}
          {error && <Alert variant="danger">{error}</Alert>}
          {mfaToken ? (
            <MfaCodeForm
              mfaToken={mfaToken}
              variant={ROLE_VARIANT[role]}
              onSignedIn={goOn}
              onRestart={() => {
                setMfaToken(null);
                form.resetField('password');
              }}
            />
          ) : (
            <Form noValidate onSubmit={(event) => void handleSubmit(event)}>
              <TextField
                id="signin-email"
                label="Email"
                type="email"
                autoComplete="email"
                registration={form.register('email')}
                error={errors.email}
              />
              <TextField
                id="signin-password"
                label="Password"
                type="password"
                autoComplete="current-password"
                registration={form.register('password')}
                error={errors.password}
              />
              <SubmitButton isBusy={isSubmitting} variant={ROLE_VARIANT[role]}>
                Log In
              </SubmitButton>
            </Form>
          )}
          <div className="d-flex justify-content-between mt-3">
            <Link to={PATHS.resetPassword}>Reset Password</Link>
            <Link to={PATHS.signUp}>Sign Up</Link>
          </div>
          <OtherPortals role={role} state={state} />
        </Card.Body>
      </Card>
    </Container>
  );
}
