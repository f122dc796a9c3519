import { expect, test } from '@playwright/test';
import { patientWithImageByApi } from '../fixtures/accounts.js';
import { AccessHistoryPage } from '../pages/access-history.page.js';
import { DashboardPage } from '../pages/dashboard.page.js';

test('a patient sees in Access History that their physician opened one of their images', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const patient = await (await browser.newContext()).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const { imageUid } = await patientWithImageByApi(patient, doctor, 'Follow-up of the left wrist.');

  // The demo physician (signed in by the fixture) opens the image; the read is recorded before the answer.
  await doctor.goto(`/imageview?image=${imageUid}`);
  await expect(doctor.getByRole('heading', { name: 'Erin Endtoend' })).toBeVisible();

  await patient.goto('/dashboard');
  await new DashboardPage(patient).card('Access History').click();
  await expect(patient).toHaveURL(/\/access-history$/);
  const history = new AccessHistoryPage(patient);
  await expect(history.heading()).toHaveText('Access History');
  // The visit is one row: the image named and linked, viewed and its files (picture, thumbnail) downloaded.
  const visits = history.visitsBy('Dr. Jane Physician (Physician)');
  await expect(visits).toHaveCount(1);
  await expect(visits).toContainText(/Image · uploaded .*: viewed, \d+ files? downloaded$/);
  await expect(visits.getByRole('link', { name: /^Image · uploaded / })).toHaveAttribute(
    'href',
    `/imageview?image=${imageUid}`,
  );
});
