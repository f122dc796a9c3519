import crypto from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { Api } from './lib/api.js';
import { CONNECTIONS } from './lib/load.js';
import { median } from './lib/measure.js';

const PASSWORD = 'bench password';
const ACCOUNTS = Number(process.env.BENCH_MFA_ACCOUNTS ?? 200);

export interface SignInFigure {
  name: string;
  perSecond: number;
  median: number;
  p99: number;
}

function nextStepCode(secret: string): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  // A code is accepted once per 30-second step: the enrolment spent this step's code.
  return totp.generate({ timestamp: Date.now() + 30_000 });
}

async function post(base: string, path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** New accounts, signed up through the API; with `withMfa` each turns two-factor sign-in on. */
async function accounts(base: string, withMfa: boolean): Promise<{ email: string; secret?: string }[]> {
  const made: { email: string; secret?: string }[] = [];
  for (let index = 0; index < ACCOUNTS; index += 1) {
    const email = `bench-mfa-${crypto.randomUUID().slice(0, 12)}@example.test`;
    const api = new Api(base);
    await api.json('POST', '/api/auth/signup', {
      role: 'PATIENT',
      first_name: 'Bench',
      last_name: 'Signin',
      dob: '1990-01-01',
      email,
      password: PASSWORD,
    });
    await api.signIn(email, PASSWORD);
    if (!withMfa) {
      made.push({ email });
      continue;
    }
    const { secret } = await api.json<{ secret: string }>('POST', '/api/auth/mfa/totp/setup', {
      password: PASSWORD,
    });
    const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
    await api.json('POST', '/api/auth/mfa/totp/enable', { code });
    made.push({ email, secret });
  }
  return made;
}

/** One whole sign-in as a browser makes it: the password, then (with two-factor) the code. */
async function signInOnce(base: string, account: { email: string; secret?: string }): Promise<void> {
  const first = await post(base, '/api/auth/signin', { email: account.email, password: PASSWORD });
  const body = (await first.json()) as { mfa_token?: string; token?: string };
  if (!account.secret) {
    if (!body.token) {
      throw new Error(`sign-in failed: ${first.status}`);
    }
    return;
  }
  const second = await post(base, '/api/auth/mfa/verify', {
    mfa_token: body.mfa_token,
    code: nextStepCode(account.secret),
  });
  if (second.status !== 200) {
    throw new Error(`code step failed: ${second.status} ${await second.text()}`);
  }
}

/** Each account signs in once, CONNECTIONS at a time; sign-ins per second and latency of the whole sign-in. */
async function measure(
  name: string,
  base: string,
  list: { email: string; secret?: string }[],
): Promise<SignInFigure> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < list.length) {
      const account = list[next++]!;
      const before = performance.now();
      await signInOnce(base, account);
      latencies.push(performance.now() - before);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - started) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    name,
    perSecond: list.length / seconds,
    median: median(latencies),
    p99: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))]!,
  };
}

/** Sign-in with and without two-factor codes, on accounts made for the purpose. */
export async function twoFactorSignInFigures(base: string): Promise<SignInFigure[]> {
  const plain = await accounts(base, false);
  const enrolled = await accounts(base, true);
  return [
    await measure('sign-in, password only', base, plain),
    await measure(
      'sign-in, password then TOTP code (POST /api/auth/signin + /api/auth/mfa/verify)',
      base,
      enrolled,
    ),
  ];
}
