import { expect, test } from '@playwright/test';

test('the landing page lists the six radiologists', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Get your medical scan interpreted today.' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Meet Our Radiologists!' })).toBeVisible();
  for (const name of [
    'Dr. Emily Johnson',
    'Dr. David Smith',
    'Dr. Robert Rivera',
    'Dr. John Radiologist',
    'Dr. Laura Davis',
    'Dr. Monica Kirk',
  ]) {
    await expect(page.getByText(name, { exact: true })).toBeVisible();
  }
  await expect(page.getByText('Specialization: Musculoskeletal')).toBeVisible();
  await expect(
    page.getByRole('contentinfo').getByText('All rights reserved', { exact: false }),
  ).toBeVisible();
});

test('an unknown path shows the not-found text', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByText('There is nothing on this page.')).toBeVisible();
});

test('the contact page shows the support hours', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Contact Us' }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByText('Monday to Friday: 9:00 AM to 6:00 PM')).toBeVisible();
  await expect(page.getByText('Saturday: 10:00 AM to 4:00 PM')).toBeVisible();
  await expect(page.getByText('Sunday: Closed')).toBeVisible();
});
