import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import type { Radiologist } from '@ra/shared';
import {
  createPatientAccount,
  DEMO_PASSWORD,
  patientWithImageByApi,
  signInByApi,
  toast,
  uniqueEmail,
  waitForEmailLink,
} from '../fixtures/accounts.js';
import { ProfilePage } from '../pages/profile.page.js';
import { SignInPage } from '../pages/sign-in.page.js';
import { DashboardPage } from '../pages/dashboard.page.js';

const PUBLIC_PICTURE = /^\/api\/profile-pictures\/[0-9a-f-]{36}\.webp$/;

/** A new patient of the demo physician whose image Dr. John Radiologist was paid for and has reviewed. */
async function patientReviewedByJohn(patient: Page, doctor: Page, john: Page) {
  const { me, imageUid } = await patientWithImageByApi(patient, doctor, 'Headaches for two weeks.');
  const patientAuth = { authorization: `Bearer ${me.token}` };

  const { radiologists } = (await (await patient.request.get('/api/user/radiologists')).json()) as {
    radiologists: Radiologist[];
  };
  const johnUid = radiologists.find((r) => r.last_name === 'Radiologist')!.uid;
  const invoice = await patient.request.post(`/api/payment/${johnUid}/invoice`, {
    data: { image: imageUid },
    headers: patientAuth,
  });
  const invoiceUid = ((await invoice.json()) as { invoice: { uid: string } }).invoice.uid;
  const paid = await patient.request.post(`/api/payment/sandbox/${invoiceUid}/pay`, { headers: patientAuth });
  expect(paid.status()).toBe(200);

  const { token: johnToken } = await signInByApi(
    john,
    'radiologist@example.com',
    DEMO_PASSWORD,
    'Radiologist',
  );
  const note = await john.request.patch(`/api/image/${imageUid}`, {
    data: { note: 'Normal MRI of the brain.' },
    headers: { authorization: `Bearer ${johnToken}` },
  });
  expect(note.status()).toBe(200);
  return imageUid;
}

test('the demo radiologist adds a picture and a bio and opts out of ratings; patients see the picture and cannot rate him', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const patient = await (await browser.newContext()).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const john = await (await browser.newContext()).newPage();
  const imageUid = await patientReviewedByJohn(patient, doctor, john);

  // Dr. John Radiologist edits his profile.
  const profile = new ProfilePage(john);
  await profile.open();
  await expect(john.getByRole('heading', { name: 'Dr. John Radiologist' })).toBeVisible();
  await expect(john.getByText('You are opted in to ratings', { exact: false })).toBeVisible();
  await expect(john.getByRole('link', { name: 'View My Patients' })).toBeVisible();
  await profile.edit();
  await expect(profile.saveButton()).toBeDisabled();
  const portrait = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#aa3366' } })
    .png()
    .toBuffer();
  await profile.choosePicture('portrait.png', portrait);
  await expect(john.getByRole('img', { name: 'Preview of your new picture' })).toBeVisible();
  await profile.bio().fill('Neuroradiologist. I answer second-opinion requests within two working days.');
  await john.getByLabel('Opt Out').check();
  await expect(profile.saveButton()).toBeEnabled();
  await profile.saveButton().click();
  await expect(toast(john, 'Saved profile successfully!')).toBeVisible();

  // The view shows the new values, and the cropped picture once the background job has made it.
  await expect(
    john.getByText('Neuroradiologist. I answer second-opinion requests within two working days.'),
  ).toBeVisible();
  await expect(john.getByText('You are opted out of ratings: patients cannot rate you.')).toBeVisible();
  await expect(profile.photo()).toHaveAttribute('src', PUBLIC_PICTURE);
  const pictureUrl = await profile.photo().getAttribute('src');

  // The landing page shows the new picture on his card.
  await patient.goto('/');
  const card = patient.locator('.card', { hasText: 'Dr. John Radiologist' });
  // Decorative (alt=""): the name beside it says who it is.
  const picture = card.locator('img');
  await expect(picture).toHaveAttribute('src', pictureUrl!);
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(100);

  // The patient sees him in their care team, and their rating is refused.
  await patient.goto('/profile');
  const team = patient.getByRole('region', { name: 'Your care team' });
  await expect(team.getByText('Dr. Jane Physician')).toBeVisible();
  await expect(team.getByText('Dr. John Radiologist')).toBeVisible();
  await patient.goto(`/imageview?image=${imageUid}`);
  await patient.getByRole('button', { name: 'Leave a Review' }).click();
  const review = patient.getByRole('dialog', { name: 'Leave a Review' });
  await review.getByLabel('Radiologist').selectOption({ label: 'Dr. John Radiologist' });
  await review.getByRole('radio', { name: '5 stars' }).check();
  await review.getByRole('button', { name: 'Submit' }).click();
  await expect(review.getByText('This radiologist is not accepting ratings.')).toBeVisible();
});

test('a patient changes their email and signs in with the new one', async ({ page }) => {
  // A whole journey: a new account, two refused changes, the emailed link, signing out and in again.
  // It took 31.5 s once on CI's two busy cores, past the 30 s default, at its very last step.
  test.setTimeout(60_000);
  const account = await createPatientAccount(page);
  await signInByApi(page, account.email, account.password);
  const profile = new ProfilePage(page);
  await profile.open();
  await expect(page.getByText(account.email)).toBeVisible();
  await expect(page.getByText('You have no care team yet.', { exact: false })).toBeVisible();
  await profile.edit();
  await expect(page.getByLabel('Bio')).toHaveCount(0);
  await page.getByRole('button', { name: 'Update Email' }).click();
  const modal = profile.emailModal();
  await modal.getByRole('button', { name: 'Update Email' }).click();
  await expect(modal.getByText('Email and password are required.')).toBeVisible();

  const newEmail = uniqueEmail('moved');
  await profile.submitEmail(newEmail, 'not my password');
  await expect(modal.getByText('Incorrect password')).toBeVisible();
  await profile.submitEmail(newEmail, account.password);
  await expect(modal.getByRole('alert')).toHaveText(
    `We sent a link to ${newEmail}. Your email address changes when you open it.`,
  );
  await modal.getByRole('button', { name: 'Close' }).first().click();
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText(account.email)).toBeVisible();

  // The address changes only once the new one opens its link.
  await page.goto(await waitForEmailLink(newEmail, /\/verify-email\?token=\S+&change=1$/));
  await expect(
    page.getByText(
      'Your email address has been changed. Other browsers signed in to your account were signed out.',
      { exact: true },
    ),
  ).toBeVisible();
  await profile.open();
  await expect(page.getByText(newEmail)).toBeVisible();

  const oldSignIn = await page.request.post('/api/auth/signin', {
    data: { email: account.email, password: account.password },
  });
  expect(oldSignIn.status()).toBe(401);

  await page.getByRole('button', { name: 'Ms. Erin Endtoend' }).click();
  await page
    .getByRole('button', { name: 'Log Out' })
    .or(page.getByRole('link', { name: 'Log Out' }))
    .click();
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  const signIn = new SignInPage(page);
  await signIn.open('Patient');
  await signIn.signIn(newEmail, account.password);
  await expect(new DashboardPage(page).heading()).toHaveText('Welcome, Ms. Erin Endtoend!');
});
