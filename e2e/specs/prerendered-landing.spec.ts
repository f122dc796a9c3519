import { expect, test, type Page } from '@playwright/test';

/** Keeps the app's code from arriving, so only what the server's HTML shows is on screen. */
async function withoutAppCode(page: Page) {
  await page.route(/\/assets\/.+\.js$/, (route) => route.abort());
}

test('the landing page shows its content before the app code arrives, and no account menu', async ({
  page,
}) => {
  await withoutAppCode(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Get your medical scan interpreted today.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup');
  await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Contact Us' })).toBeVisible();
  // Who is signed in is known only to the app: neither "Log In" nor a user's menu yet.
  await expect(page.getByRole('button', { name: 'Log In' })).toHaveCount(0);
});

test('other addresses never show the prerendered landing page', async ({ page }) => {
  await withoutAppCode(page);
  await page.goto('/contact');
  await expect(page.locator('#root')).toBeAttached();
  await expect(page.getByRole('heading', { name: 'Get your medical scan interpreted today.' })).toHaveCount(
    0,
  );
});

test('the app takes the prerendered page’s place once it shows the landing page', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Log In' })).toBeVisible();
  await expect(page.locator('#prerendered-page')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Get your medical scan interpreted today.' })).toHaveCount(
    1,
  );
  await expect(page.getByText('Dr. Emily Johnson', { exact: true })).toBeVisible();
});
