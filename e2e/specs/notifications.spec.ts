import { expect, test } from '@playwright/test';
import { addPatientByApi, createPatientAccount, DEMO_PASSWORD, signInByApi } from '../fixtures/accounts.js';

test('a patient sees the bell count, reads a notification and marks it read', async ({ browser, page }) => {
  const account = await createPatientAccount(page);
  // The demo physician adds this patient, which notifies them.
  const doctor = await (await browser.newContext()).newPage();
  const { token } = await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(doctor, token, account);

  await signInByApi(page, account.email, account.password);
  await page.goto('/dashboard');
  const bell = page.getByRole('link', { name: 'Notifications, 1 unread' });
  await expect(bell).toBeVisible();
  await bell.click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole('link', { name: 'You have been added as a patient.' })).toHaveAttribute(
    'href',
    '/dashboard',
  );
  const markRead = page.getByRole('button', { name: 'Mark as Read', exact: true });
  await expect(markRead).toBeDisabled();
  await page.getByRole('checkbox', { name: 'Select “You have been added as a patient.”' }).check();
  await markRead.click();
  await expect(page.getByRole('link', { name: 'Notifications', exact: true })).toBeVisible();
  await expect(page.getByText('Read:')).toBeAttached();
});
