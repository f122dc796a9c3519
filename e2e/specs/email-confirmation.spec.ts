import { expect, test } from '@playwright/test';
import { toast, uniqueEmail, waitForEmailLink } from '../fixtures/accounts.js';
import { DashboardPage } from '../pages/dashboard.page.js';
import { SignUpPage } from '../pages/sign-up.page.js';

test('a new patient confirms their email through the emailed link and the banner goes away', async ({
  page,
}) => {
  const email = uniqueEmail('confirming');
  const signUp = new SignUpPage(page);
  await signUp.open();
  await signUp.signUp({
    role: 'Patient',
    title: 'Mr.',
    first: 'Conrad',
    last: 'Confirm',
    dob: '1987-02-11',
    email,
    password: 'confirm password',
  });
  await expect(toast(page, 'Share your account email with your physician to get started.')).toBeVisible();

  // Sign-up signs the new patient in; until the address is confirmed the banner asks for it.
  await expect(page).toHaveURL(/\/dashboard$/);
  const dashboard = new DashboardPage(page);
  await expect(dashboard.heading()).toHaveText('Welcome, Mr. Conrad Confirm!');
  const banner = page.getByRole('region', { name: 'Email confirmation' });
  await expect(banner).toHaveText(
    `Please confirm your email address: open the link we sent to ${email}. Until then your account shows no medical records. Send the link again`,
  );

  // A slow reload of the user must not move the page under the visitor's click: the banner is gone
  // before the message and its link appear.
  await page.route('**/api/auth/refresh', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  await page.goto(await waitForEmailLink(email, /\/verify-email\?token=[^&\s]+$/));
  await expect(page.getByRole('heading', { name: 'Confirm your email address' })).toBeVisible();
  await expect(page.getByText('Thank you: your email address is confirmed.', { exact: true })).toBeVisible();
  expect(await banner.count()).toBe(0);

  await page.getByRole('link', { name: 'Go to your dashboard' }).click();
  await expect(dashboard.heading()).toHaveText('Welcome, Mr. Conrad Confirm!');
  await expect(banner).toHaveCount(0);
});
