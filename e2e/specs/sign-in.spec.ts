import { expect, test } from '@playwright/test';
import { createPatientAccount, DEMO_PASSWORD, signInByApi } from '../fixtures/accounts.js';
import { DashboardPage } from '../pages/dashboard.page.js';
import { SignInPage } from '../pages/sign-in.page.js';

test('a patient trying the Radiologist portal is refused', async ({ page }) => {
  const account = await createPatientAccount(page);
  const signIn = new SignInPage(page);
  await signIn.open('Radiologist');
  await signIn.signIn(account.email, account.password);
  await expect(signIn.alert()).toHaveText('Unable to login through this portal');
  await expect(page).toHaveURL(/\/signin/);
});

test('a wrong password is refused', async ({ page }) => {
  const signIn = new SignInPage(page);
  await signIn.open('Patient');
  await signIn.signIn('patient@example.com', 'not the password');
  await expect(signIn.alert()).toHaveText('The email or password is incorrect');
});

test('an unknown address, a wrong password and another portal’s account read the same', async ({ page }) => {
  const signIn = new SignInPage(page);
  await signIn.open('Physician');
  const answers: string[] = [];
  // An address with no account, a patient's address (another portal) and the demo physician's,
  // each with a wrong password: nothing tells them apart.
  for (const email of ['nobody-here@example.com', 'patient@example.com', 'physician@example.com']) {
    await signIn.signIn(email, 'not the password');
    await expect(signIn.alert()).toBeVisible();
    answers.push((await signIn.alert().textContent()) ?? '');
  }
  expect(answers).toEqual(Array(3).fill('The email or password is incorrect'));
});

test('a physician following a link while signed out switches portal and lands where the link pointed', async ({
  page,
}) => {
  await page.goto('/incoming');
  await expect(page.getByRole('heading', { name: 'Patient Login' })).toBeVisible();
  await page
    .getByRole('navigation', { name: 'Other portals' })
    .getByRole('link', { name: 'Physician' })
    .click();
  await expect(page.getByRole('heading', { name: 'Physician Login' })).toBeVisible();
  await new SignInPage(page).signIn('physician@example.com', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/incoming$/);
  await expect(page.getByRole('heading', { name: 'Incoming Studies' })).toBeVisible();
});

test('the demo radiologist signs in through the Radiologist portal and stays signed in on reload', async ({
  page,
}) => {
  const signIn = new SignInPage(page);
  await signIn.open('Radiologist');
  await signIn.signIn('radiologist@example.com', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  const dashboard = new DashboardPage(page);
  await expect(dashboard.heading()).toHaveText('Welcome, Dr. John Radiologist!');
  await expect(page.getByText('Radiologist Portal')).toBeVisible();

  await page.reload();
  await expect(dashboard.heading()).toHaveText('Welcome, Dr. John Radiologist!');
  await expect(dashboard.card('View Patients')).toBeVisible();
});

test('signing out returns to the landing page, and the dashboard then sends visitors home', async ({
  page,
}) => {
  const signIn = new SignInPage(page);
  await signIn.open('Physician');
  await signIn.signIn('physician@example.com', DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.getByRole('button', { name: 'Dr. Jane Physician' }).click();
  await page
    .getByRole('button', { name: 'Log Out' })
    .or(page.getByRole('link', { name: 'Log Out' }))
    .click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/$/);
});

test('reloading while the session is being renewed keeps the patient signed in', async ({ page }) => {
  // Forty reloads and an 11 s wait: through the cluster on a slow machine, CI ran out of 60 s with
  // the patient signed in on the dashboard.
  test.setTimeout(120_000);
  const account = await createPatientAccount(page);
  await signInByApi(page, account.email, account.password);
  await page.goto('/dashboard');
  const dashboard = new DashboardPage(page);
  await expect(dashboard.card('View Medical Images')).toBeVisible();
  // Every page load renews the session and turns its cookie; a reload lands while that renewal is
  // on its way, over and over, as an impatient person or a slow network makes it.
  for (let reload = 0; reload < 40; reload += 1) {
    const renewal = page.waitForRequest('**/api/auth/refresh');
    await page.reload({ waitUntil: 'commit' });
    await renewal;
  }
  // Past the few seconds in which a turned cookie is still forgiven, the next load still knows who it is.
  await page.waitForTimeout(11_000);
  await page.reload();
  await expect(dashboard.card('View Medical Images')).toBeVisible();
});
