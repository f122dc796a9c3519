import { useEffect, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import QRCode from 'qrcode';
import type { MfaSetup } from '@ra/shared';
import { useAuth } from '../app/auth/auth-context';
import { ApiError, messageOf } from '../lib/api-client';
import { disableTwoFactor, enableTwoFactor, setUpTwoFactor } from '../lib/api/two-factor';

type Step =
  | { kind: 'idle' }
  | { kind: 'password' }
  | { kind: 'scan'; setup: MfaSetup; qr: string | null }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disable' };

function failureOf(err: unknown): string {
  return err instanceof ApiError && err.status < 500
    ? messageOf(err.body)
    : 'Something went wrong. Please try again.';
}

/** One labelled input of this section, with its error tied to it for screen readers. */
function Field(props: {
  id: string;
  label: string;
  type?: string;
  value: string;
  onChange: (value: string) => void;
  autoComplete?: string;
  inputMode?: 'numeric';
}) {
  return (
    <Form.Group className="mb-3" controlId={props.id}>
      <Form.Label>{props.label}</Form.Label>
      <Form.Control
        type={props.type ?? 'text'}
        value={props.value}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        onChange={(event) => props.onChange(event.target.value)}
      />
    </Form.Group>
  );
}

/**
 * Two-factor sign-in on the profile (docs/api.md §6): set up with the password, scan the QR
 * code or type the secret, confirm with a first code, keep the recovery codes; turn off with the
 * password and a code.
 */
export function TwoFactorSection({ isRequired = false }: { isRequired?: boolean }) {
  const { user, reloadUser } = useAuth();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const isEnabled = user?.mfa_enabled === true;

  const setupUrl = step.kind === 'scan' ? step.setup.otpauth_url : null;
  useEffect(() => {
    if (!setupUrl) {
      return;
    }
    let isCurrent = true;
    QRCode.toDataURL(setupUrl, { margin: 1, width: 200 })
      .then(
        (qr) => isCurrent && setStep((current) => (current.kind === 'scan' ? { ...current, qr } : current)),
      )
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [setupUrl]);

  function reset(next: Step) {
    setStep(next);
    setPassword('');
    setCode('');
    setError(null);
  }

  async function run(work: () => Promise<void>) {
    setIsBusy(true);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(failureOf(err));
    } finally {
      setIsBusy(false);
    }
  }

  const handleSetup = () =>
    run(async () => {
      const setup = await setUpTwoFactor({ password });
      reset({ kind: 'scan', setup, qr: null });
    });
  const handleEnable = () =>
    run(async () => {
      const { recovery_codes } = await enableTwoFactor({ code });
      reset({ kind: 'codes', codes: recovery_codes });
      await reloadUser();
    });
  const handleDisable = () =>
    run(async () => {
      await disableTwoFactor({ password, code });
      reset({ kind: 'idle' });
      await reloadUser();
    });

  return (
    <section aria-labelledby="two-factor-title" className="mt-4 pt-3 border-top">
      <h2 id="two-factor-title" className="h5">
        Two-factor sign-in
      </h2>
      {isRequired && !isEnabled && (
        <Alert variant="warning">
          Your organisation requires two-factor sign-in for staff. Set it up to continue.
        </Alert>
      )}
      {error && <Alert variant="danger">{error}</Alert>}
      {step.kind === 'idle' && (
        <>
          <p>
            {isEnabled
              ? 'On: signing in asks for a code from your authenticator app after your password.'
              : 'Off: signing in needs only your password.'}
          </p>
          {isEnabled ? (
            !isRequired && (
              <Button variant="outline-danger" onClick={() => reset({ kind: 'disable' })}>
                Turn off two-factor sign-in
              </Button>
            )
          ) : (
            <Button onClick={() => reset({ kind: 'password' })}>Set up two-factor sign-in</Button>
          )}
        </>
      )}
      {step.kind === 'password' && (
        <Form noValidate onSubmit={(event) => (event.preventDefault(), void handleSetup())}>
          <Field
            id="mfa-password"
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
          />
          <Button type="submit" disabled={isBusy || !password}>
            Continue
          </Button>{' '}
          <Button variant="link" onClick={() => reset({ kind: 'idle' })}>
            Cancel
          </Button>
        </Form>
      )}
      {step.kind === 'scan' && (
        <Form noValidate onSubmit={(event) => (event.preventDefault(), void handleEnable())}>
          <p>
            Scan this code with an authenticator app, or type the secret key into it. Then enter the code it
            shows.
          </p>
          {step.qr ? (
            <img
              src={step.qr}
              width={200}
              height={200}
              alt="QR code for your authenticator app"
              className="mb-3 border"
            />
          ) : (
            <p className="text-body-secondary">Drawing the QR code…</p>
          )}
          <p>
            Secret key: <code data-testid="mfa-secret">{step.setup.secret}</code>
          </p>
          <Field
            id="mfa-enable-code"
            label="Code from your app"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
          />
          <Button type="submit" disabled={isBusy || !code}>
            Turn on
          </Button>{' '}
          <Button variant="link" onClick={() => reset({ kind: 'idle' })}>
            Cancel
          </Button>
        </Form>
      )}
      {step.kind === 'codes' && (
        <>
          <Alert variant="success">Two-factor sign-in is on.</Alert>
          <p>
            Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone; they
            are not shown again.
          </p>
          <ul className="list-unstyled font-monospace" aria-label="Recovery codes">
            {step.codes.map((recovery) => (
              <li key={recovery}>{recovery}</li>
            ))}
          </ul>
          <Button onClick={() => reset({ kind: 'idle' })}>I have saved these codes</Button>
        </>
      )}
      {step.kind === 'disable' && (
        <Form noValidate onSubmit={(event) => (event.preventDefault(), void handleDisable())}>
          <Field
            id="mfa-disable-password"
            label="Your password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={setPassword}
          />
          <Field
            id="mfa-disable-code"
            label="Code from your app"
            inputMode="numeric"
            autoComplete="one-time-code"
            value={code}
            onChange={setCode}
          />
          <Button type="submit" variant="danger" disabled={isBusy || !password || !code}>
            Turn off
          </Button>{' '}
          <Button variant="link" onClick={() => reset({ kind: 'idle' })}>
            Cancel
          </Button>
        </Form>
      )}
    </section>
  );
}
