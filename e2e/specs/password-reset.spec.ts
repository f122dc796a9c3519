import { expect, test } from '@playwright/test';
import { createPatientAccount, waitForEmailLink } from '../fixtures/accounts.js';
import { DashboardPage } from '../pages/dashboard.page.js';
import { SignInPage } from '../pages/sign-in.page.js';

test('a user resets the password through the emailed link and signs in with the new one', async ({
  page,
}) => {
  const account = await createPatientAccount(page);
  await page.goto('/reset-password');
  await page.getByLabel('Email').fill(account.email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Email Sent!')).toBeVisible();

  const link = await waitForEmailLink(account.email, /\/reset-password\?token=/);
  await page.goto(link);
  await page.getByLabel('New password', { exact: true }).fill('a brand new password');
  await page.getByLabel('Confirm new password').fill('a brand new password');
  await page.getByRole('button', { name: /Save|Set password|Continue/ }).click();
  await expect(page.getByText('Your password has been set. You can now log in.')).toBeVisible();

  const signIn = new SignInPage(page);
  await signIn.open('Patient');
  await signIn.signIn(account.email, account.password);
  await expect(signIn.alert()).toHaveText('The email or password is incorrect');
  await signIn.signIn(account.email, 'a brand new password');
  await expect(new DashboardPage(page).heading()).toHaveText('Welcome, Ms. Erin Endtoend!');
});
