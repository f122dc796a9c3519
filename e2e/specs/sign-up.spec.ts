import { expect, test } from '@playwright/test';
import { rosterPhysician, toast, uniqueEmail } from '../fixtures/accounts.js';
import { DASHBOARD_CARDS, DashboardPage } from '../pages/dashboard.page.js';
import { SignUpPage } from '../pages/sign-up.page.js';

test('a patient signs up, is told to share their email, and sees the patient cards', async ({ page }) => {
  const signUp = new SignUpPage(page);
  const email = uniqueEmail('new-patient');
  await signUp.open();
  await signUp.signUp({
    role: 'Patient',
    title: 'Mrs.',
    first: 'Nora',
    last: 'Newcomer',
    dob: '1992-04-09',
    email,
    password: 'patient password',
  });
  await expect(toast(page, 'Share your account email with your physician to get started.')).toBeVisible();

  await expect(page).toHaveURL(/\/dashboard$/);
  const dashboard = new DashboardPage(page);
  await expect(dashboard.heading()).toHaveText('Welcome, Mrs. Nora Newcomer!');
  for (const card of DASHBOARD_CARDS.Patient) {
    await expect(dashboard.card(card)).toBeVisible();
  }
  await expect(page.getByText('Patient Portal')).toBeVisible();
});

test('a physician on a hospital roster signs up and sees the physician cards', async ({ page }) => {
  const person = rosterPhysician(0);
  const signUp = new SignUpPage(page);
  await signUp.open();
  await signUp.signUp({
    role: 'Physician',
    hospital: person.hospital,
    first: person.first,
    last: person.last,
    dob: person.dob,
    email: uniqueEmail('new-physician'),
    password: 'physician password',
  });
  await expect(page).toHaveURL(/\/dashboard$/);
  const dashboard = new DashboardPage(page);
  await expect(dashboard.heading()).toHaveText(`Welcome, Dr. ${person.first} ${person.last}!`);
  for (const card of DASHBOARD_CARDS.Physician) {
    await expect(dashboard.card(card)).toBeVisible();
  }
});

test('a physician who is not on the roster is refused with the server message', async ({ page }) => {
  const signUp = new SignUpPage(page);
  await signUp.open();
  await signUp.signUp({
    role: 'Physician',
    hospital: 'Sunset Memorial Hospital',
    first: 'Not',
    last: 'Listed',
    dob: '1970-01-01',
    email: uniqueEmail('impostor'),
    password: 'physician password',
  });
  await expect(page.getByRole('alert')).toHaveText('Physician does not exist in hospital');
  await expect(page).toHaveURL(/\/signup$/);
});
