import crypto from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import {
  createPatientAccount,
  DEMO_PASSWORD,
  signInByApi,
  toast,
  uniqueEmail,
  waitForEmailLink,
} from '../fixtures/accounts.js';
import { SignInPage } from '../pages/sign-in.page.js';

/** A PNG of random pixels: it does not compress, so it is several megabytes. */
async function noisyPng(size: number): Promise<Buffer> {
  return sharp(crypto.randomBytes(size * size * 3), { raw: { width: size, height: size, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test('a physician invites a patient and uploads an image with pausing; the patient sees it', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const doctor = await newPage(browser);
  await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);

  // The physician adds a new patient.
  const email = uniqueEmail('invitee');
  await doctor.goto('/addpatient');
  await expect(doctor.getByRole('heading', { name: 'Patient Center' })).toBeVisible();
  await doctor.getByLabel('First name').fill('Iris');
  await doctor.getByLabel('Last name').fill('Invitee');
  await doctor.getByLabel('Month').selectOption({ label: 'May' });
  await doctor.getByLabel('Day').fill('7');
  await doctor.getByLabel('Year').fill('1984');
  await doctor.getByLabel('Email').fill(email);
  await doctor.getByRole('button', { name: 'Add New Patient' }).click();
  await expect(doctor).toHaveURL(/\/patients$/);
  await expect(doctor.getByRole('heading', { name: 'Iris Invitee' })).toBeVisible();

  // The patient opens the invitation, chooses a password and signs in.
  const link = await waitForEmailLink(email, /invite=1$/);
  const patient = await newPage(browser);
  await patient.goto(link);
  await expect(patient.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
  await patient.getByLabel('New password', { exact: true }).fill('iris password 1');
  await patient.getByLabel('Confirm new password').fill('iris password 1');
  await patient.getByRole('button', { name: 'Save password' }).click();
  await expect(patient.getByText('Your password has been set. You can now log in.')).toBeVisible();
  const signIn = new SignInPage(patient);
  await signIn.open('Patient');
  await signIn.signIn(email, 'iris password 1');
  await expect(patient.getByRole('heading', { name: 'Welcome, Iris Invitee!' })).toBeVisible();

  // The physician uploads a multi-megabyte PNG with a note and a recommended radiologist,
  // pausing once. Each chunk is held back a little so there is time to press Pause.
  const file = await noisyPng(1400);
  expect(file.length).toBeGreaterThan(4 * 1024 * 1024);
  await doctor.route('**/api/uploads/*', async (route) => {
    if (route.request().method() === 'PATCH') {
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
    await route.continue();
  });
  await doctor.goto('/upload');
  await expect(doctor.getByRole('heading', { name: 'Medical Image Upload' })).toBeVisible();
  const completeButton = doctor.getByRole('button', { name: 'Complete Upload' });
  await expect(completeButton).toBeDisabled();
  await doctor.getByLabel('Patient').selectOption({ label: `Iris Invitee (${email})` });
  await doctor.getByLabel('Image').setInputFiles({ name: 'chest.png', mimeType: 'image/png', buffer: file });
  await expect(doctor.getByAltText('Preview of the chosen image')).toBeVisible();
  await doctor.getByLabel('Notes').fill('Clear lungs; recommend a musculoskeletal review of the ribs.');
  await doctor
    .getByLabel('Recommended radiologist (optional)')
    .selectOption({ label: 'Dr. Laura Davis — Musculoskeletal' });
  await expect(completeButton).toBeEnabled();
  await completeButton.click();
  await doctor.getByRole('button', { name: 'Pause' }).click();
  await expect(doctor.getByText(/sent — paused/)).toBeVisible();
  await doctor.getByRole('button', { name: 'Resume' }).click();
  const uploaded = toast(doctor, 'Image uploaded successfully!');
  await expect(uploaded).toBeVisible();
  await expect(uploaded.getByRole('link', { name: 'View the image' })).toHaveAttribute(
    'href',
    /^\/imageview\?image=[0-9a-f-]{36}$/,
  );

  // The patient finds it in the library with its thumbnail, opens it, and reloads the view.
  await patient.goto('/imagelibrary');
  await expect(patient.getByRole('heading', { name: 'Your Medical Images' })).toBeVisible();
  const row = patient.getByRole('row').filter({ hasText: 'Dr. Jane Physician' });
  await expect(row.getByRole('img', { name: /^Image uploaded/ })).toBeVisible({ timeout: 20_000 });
  await row.getByRole('link', { name: 'View' }).click();
  await expect(patient).toHaveURL(/\/imageview\?image=[0-9a-f-]{36}$/);
  const imageUrl = patient.url();
  await expect(patient.getByRole('heading', { name: 'Iris Invitee' })).toBeVisible();
  await patient.reload();
  await expect(patient.getByRole('heading', { name: 'Iris Invitee' })).toBeVisible();
  // The picture opens in the viewer, decoded at its full size.
  const stage = patient.getByTestId('viewer-stage');
  await expect(stage).toHaveAttribute('data-first-image-ms', /^\d+$/, { timeout: 20_000 });
  await expect(stage).toHaveAccessibleName(/^Image of 1400 × 1400 pixels;/);
  await expect(
    patient.getByText('Clear lungs; recommend a musculoskeletal review of the ribs.'),
  ).toBeVisible();
  await expect(patient.getByText('By: Dr. Jane Physician')).toBeVisible();
  await expect(patient.getByText('Recommended radiologist: Dr. Laura Davis')).toBeVisible();
  await expect(patient.getByText('No opinions')).toBeVisible();

  // Another patient cannot open it.
  const stranger = await newPage(browser);
  const account = await createPatientAccount(stranger);
  await signInByApi(stranger, account.email, account.password);
  await stranger.goto(new URL(imageUrl).pathname + new URL(imageUrl).search);
  await expect(stranger.getByText('This image does not exist or you may not see it.')).toBeVisible();
});
