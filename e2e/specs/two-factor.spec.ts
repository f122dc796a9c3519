import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { findLinkInOutbox } from '../../server/test/outbox.js';
import { dataDir } from '../fixtures/accounts.js';
import { DashboardPage } from '../pages/dashboard.page.js';
import { SignInPage } from '../pages/sign-in.page.js';

/** A seeded radiologist no other journey uses; they get a password through the real reset email. */
const RADIOLOGIST = 'monica.kirk@radiology-archive.example';
const PASSWORD = 'two factor password 1';

/** The code an authenticator app shows `stepsAhead` periods from now. */
function codeFor(secret: string, stepsAhead = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + stepsAhead * 30_000 });
}

test('a radiologist turns on two-factor sign-in from the profile, then signs in with a code', async ({
  page,
}) => {
  // A password reset, two sign-ins and the enrolment: about 20 s here, 30 s on a slow CI machine.
  test.setTimeout(90_000);
  await page.request.post('/api/auth/reset-password', { data: { email: RADIOLOGIST } });
  let link: string | undefined;
  await expect
    .poll(() => (link = findLinkInOutbox(dataDir(), RADIOLOGIST)), { timeout: 15_000 })
    .toMatch(/\/reset-password\?token=/);
  const confirmed = await page.request.post('/api/auth/reset-password/confirm', {
    data: { token: new URL(link!).searchParams.get('token'), password: PASSWORD },
  });
  expect(confirmed.status()).toBe(200);

  const signIn = new SignInPage(page);
  await signIn.open('Radiologist');
  await signIn.signIn(RADIOLOGIST, PASSWORD);
  await expect(new DashboardPage(page).heading()).toHaveText('Welcome, Dr. Monica Kirk!');

  await page.goto('/profile');
  const section = page.getByRole('region', { name: 'Two-factor sign-in' });
  await expect(section.getByText('Off: signing in needs only your password.')).toBeVisible();
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await section.getByLabel('Your password').fill(PASSWORD);
  await section.getByRole('button', { name: 'Continue' }).click();
  await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  // The person types the secret key into their app; the test reads it from the page the same way.
  const secret = (await section.getByTestId('mfa-secret').textContent())!.trim();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await section.getByLabel('Code from your app').fill(codeFor(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByText('Two-factor sign-in is on.')).toBeVisible();
  await expect(section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  await section.getByRole('button', { name: 'I have saved these codes' }).click();
  await expect(section.getByText('On: signing in asks for a code')).toBeVisible();

  await page.getByRole('button', { name: 'Dr. Monica Kirk' }).click();
  await page.getByRole('button', { name: 'Log Out' }).click();
  await expect(page).toHaveURL(/\/$/);

  await signIn.open('Radiologist');
  await signIn.signIn(RADIOLOGIST, PASSWORD);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeVisible();
  await code.fill('000000' === codeFor(secret, 1) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('The code is incorrect.')).toBeVisible();
  // The code of the next 30-second step: the one used to turn it on cannot be used twice.
  await page.getByLabel('Authentication code').fill(codeFor(secret, 1));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(new DashboardPage(page).heading()).toHaveText('Welcome, Dr. Monica Kirk!');
});
