import { expect, test } from '@playwright/test';
import { patientWithImageByApi, signInByApi, toast, waitForEmailLink } from '../fixtures/accounts.js';

const LAURA = 'laura.davis@radiology-archive.example';

test('a patient pays for a second opinion, the radiologist answers, and the patient rates them', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  // Set-up through the API: a patient of the demo physician with one image.
  const patient = await (await browser.newContext()).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const { imageUid } = await patientWithImageByApi(patient, doctor, 'Please look at the left knee.');

  // The patient chooses Dr. Laura Davis and the image, and pays on the sandbox page.
  await patient.goto('/secondopinion');
  await patient.getByLabel('Radiologist').selectOption({ label: 'Dr. Laura Davis — Musculoskeletal' });
  await patient.getByRole('button', { name: 'Go to Image Selection' }).click();
  const modal = patient.getByRole('dialog', { name: 'Select image for a second opinion' });
  const confirm = modal.getByRole('button', { name: 'Confirm for Payment' });
  await expect(confirm).toBeDisabled();
  // Each choice names the item and shows the physician's note on it.
  const choice = modal.getByRole('radio', { name: /^Image · uploaded / });
  await expect(choice).toHaveAccessibleDescription('Please look at the left knee.');
  await choice.click();
  await confirm.click();
  await expect(patient).toHaveURL(/\/invoices$/);
  const row = patient.getByTestId('invoice-row').first();
  await expect(row).toContainText('$180.00');
  await expect(row).toContainText('Dr. Laura Davis');
  await expect(row.getByRole('link', { name: /^Image · uploaded / })).toHaveAttribute(
    'href',
    `/imageview?image=${imageUid}`,
  );
  await expect(row).toContainText('Please look at the left knee.');
  const [payTab] = await Promise.all([
    patient.context().waitForEvent('page'),
    row.getByRole('link', { name: 'unpaid / click to pay' }).click(),
  ]);
  await expect(payTab.getByText('Test payment — no money is taken')).toBeVisible();
  await payTab.getByRole('button', { name: 'Pay $180.00' }).click();
  await expect(payTab.getByText('Payment received.', { exact: false })).toBeVisible();
  await payTab.close();
  await patient.bringToFront();
  // Headless tabs do not change visibility by themselves; announce the return as a browser would.
  await patient.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
  await expect(row).toContainText('Paid');

  // Dr. Davis chooses a password through the reset email and signs in; the bell shows the request.
  const radiologist = await (await browser.newContext()).newPage();
  await radiologist.request.post('/api/auth/reset-password', { data: { email: LAURA } });
  const link = await waitForEmailLink(LAURA, /\/reset-password\?token=/);
  const resetToken = new URL(link).searchParams.get('token');
  await radiologist.request.post('/api/auth/reset-password/confirm', {
    data: { token: resetToken, password: 'laura password 1' },
  });
  await signInByApi(radiologist, LAURA, 'laura password 1', 'Radiologist');
  await radiologist.goto('/dashboard');
  await radiologist.getByRole('link', { name: /^Notifications, \d+ unread$/ }).click();
  await radiologist.getByRole('link', { name: 'Erin Endtoend has requested your opinion.' }).first().click();
  await expect(radiologist).toHaveURL(/\/patients$/);

  // Her dashboard's worklist shows the paid request with the physician's question, waiting.
  await radiologist.goto('/dashboard');
  const worklist = radiologist.getByRole('table', { name: 'Paid requests, waiting ones first' });
  const request = worklist.getByRole('row').filter({ hasText: 'Please look at the left knee.' });
  await expect(request).toContainText('Erin Endtoend');
  await expect(request).toContainText('Waiting');

  // She opens the image from there and submits her analysis.
  await request.getByRole('link', { name: /^Open / }).click();
  await expect(radiologist).toHaveURL(new RegExp(`/imageview\\?image=${imageUid}$`));
  await radiologist.getByLabel('Notes').fill('No fracture. Mild effusion; rest and review in six weeks.');
  await radiologist.getByRole('button', { name: 'Submit Analysis' }).click();
  await expect(toast(radiologist, 'Note updated successfully!')).toBeVisible();
  await radiologist.goto('/dashboard');
  await expect(request).toContainText('Analysis written');

  // The patient reads the opinion and rates her 4 stars.
  await patient.goto(`/imageview?image=${imageUid}`);
  await expect(patient.getByText('Opinion 1:')).toBeVisible();
  await expect(patient.getByText('No fracture. Mild effusion; rest and review in six weeks.')).toBeVisible();
  await patient.getByRole('button', { name: 'Leave a Review' }).click();
  const review = patient.getByRole('dialog', { name: 'Leave a Review' });
  await review.getByRole('button', { name: 'Submit' }).click();
  await expect(review.getByText('Please select a radiologist.')).toBeVisible();
  await review.getByLabel('Radiologist').selectOption({ label: 'Dr. Laura Davis' });
  await review.getByRole('radio', { name: '4 stars' }).check();
  await review.getByRole('button', { name: 'Submit' }).click();
  await expect(review.getByText('Rating submitted successfully.')).toBeVisible();

  await patient.goto('/secondopinion');
  const card = patient.getByTestId('radiologist-card').filter({ hasText: 'Dr. Laura Davis' });
  await expect(card.getByRole('img', { name: 'Rated 4 out of 5 by 1 patient' })).toBeVisible();
});
