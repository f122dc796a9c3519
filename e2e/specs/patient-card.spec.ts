import { expect, test, type Locator } from '@playwright/test';
import sharp from 'sharp';
import {
  addPatientByApi,
  confirmEmailByApi,
  DEMO_PASSWORD,
  signInByApi,
  uniqueEmail,
  uploadImageByApi,
} from '../fixtures/accounts.js';

type Box = { x: number; y: number; width: number; height: number };

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxesOf(locator: Locator): Promise<Box[]> {
  const boxes: Box[] = [];
  for (const element of await locator.all()) {
    boxes.push((await element.boundingBox())!);
  }
  return boxes;
}

test('a patient card’s thumbnails sit side by side without overlapping, on a wide and a narrow window', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // A patient whose last name puts them first in the demo physician's list.
  const email = uniqueEmail('aardvark');
  const details = { first_name: 'Abe', last_name: 'Aardvark', dob: '1970-01-02' };
  const signup = await page.request.post('/api/auth/signup', {
    data: { role: 'PATIENT', title: 'Mr.', ...details, email, password: 'aardvark password 1' },
  });
  expect(signup.status()).toBe(201);
  await confirmEmailByApi(page, email);
  const { token } = await signInByApi(page, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(page, token, { ...details, email, password: '' });
  const patientUid = (
    (await (
      await page.request.get('/api/user/patients?limit=200', {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { patients: { uid: string; email: string }[] }
  ).patients.find((patient) => patient.email === email)!.uid;
  // Wide pictures make the widest thumbnails (200 px).
  for (const shade of [40, 90, 140, 190]) {
    const png = await sharp({
      create: { width: 800, height: 400, channels: 3, background: { r: shade, g: 80, b: 120 } },
    })
      .png()
      .toBuffer();
    await uploadImageByApi(page, token, patientUid, png);
  }

  for (const width of [1366, 700]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/patients');
    const card = page.locator('.card').filter({ hasText: email });
    await card.getByRole('button', { name: 'View' }).click();
    const thumbnails = card.locator('.thumbnail-button');
    await expect(thumbnails).toHaveCount(4);
    // Each thumbnail is made in the background: wait for the pictures themselves.
    await expect(card.locator('img.thumbnail')).toHaveCount(4, { timeout: 30_000 });
    for (const image of await card.locator('img.thumbnail').all()) {
      await expect
        .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
        .toBeGreaterThan(0);
    }
    const cardBox = (await card.boundingBox())!;
    const boxes = await boxesOf(card.locator('img.thumbnail'));
    for (const [index, box] of boxes.entries()) {
      expect(box.x, `thumbnail ${index} at ${width} px`).toBeGreaterThanOrEqual(cardBox.x);
      expect(box.x + box.width, `thumbnail ${index} at ${width} px`).toBeLessThanOrEqual(
        cardBox.x + cardBox.width,
      );
      for (const other of boxes.slice(index + 1)) {
        expect(overlaps(box, other), `thumbnails overlap at ${width} px`).toBe(false);
      }
    }
  }
});
