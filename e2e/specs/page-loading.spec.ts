import { expect, test, type Page } from '@playwright/test';

/** Holds back the code of one page (its lazy chunk) until the returned function is called. */
async function holdPageCode(page: Page, pageName: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(new RegExp(`/assets/${pageName}-[\\w-]+\\.js$`), async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

function pageLoading(page: Page) {
  return page.getByRole('status').filter({ hasText: 'Loading page…' });
}

test('a page whose code is slow to arrive shows the loading state inside the layout, then the page', async ({
  page,
}) => {
  const release = await holdPageCode(page, 'ContactPage');
  await page.goto('/contact');
  await expect(pageLoading(page)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Radiology Archive' })).toBeVisible();
  await expect(
    page.getByRole('contentinfo').getByText('All rights reserved', { exact: false }),
  ).toBeVisible();

  release();
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
  await expect(pageLoading(page)).toHaveCount(0);
});

test('moving to a page whose code is slow to arrive shows the loading state, not the old page', async ({
  page,
}) => {
  const release = await holdPageCode(page, 'WorkPage');
  await page.goto('/');
  // The radiologists are listed by the app itself, so the links now navigate inside it.
  await expect(page.getByText('Dr. Emily Johnson', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Work with Us' }).click();
  await expect(pageLoading(page)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Meet Our Radiologists!' })).toHaveCount(0);

  release();
  await expect(page).toHaveURL(/\/work$/);
  await expect(page.getByRole('heading', { name: 'Work with Us' })).toBeVisible();
});

test('a page whose code cannot be fetched says so inside the layout, and a reload brings it', async ({
  page,
}) => {
  const contactCode = /\/assets\/ContactPage-[\w-]+\.js$/;
  await page.route(contactCode, (route) => route.abort('internetdisconnected'));
  await page.goto('/contact');
  await expect(page.getByRole('alert')).toContainText('This page could not be shown.');
  await expect(page.getByRole('link', { name: 'Radiology Archive' })).toBeVisible();

  await page.unroute(contactCode);
  await page.getByRole('button', { name: 'Reload the page' }).click();
  await expect(page.getByRole('heading', { name: 'Contact Us' })).toBeVisible();
});
