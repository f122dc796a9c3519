import fs from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { patientWithImageByApi } from '../fixtures/accounts.js';
import { namesIn } from '../fixtures/zip.js';

test("a physician downloads an image's ZIP from its page; the patient downloads their whole archive", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const patient = await (await browser.newContext()).newPage();
  const doctor = await (await browser.newContext()).newPage();
  // Chromium would ask where to save (File System Access), a dialog Playwright cannot answer: the
  // browser download path is what is checked here (the web tests cover writing to a chosen file).
  for (const page of [patient, doctor]) {
    await page.addInitScript(() => {
      Object.defineProperty(window, 'showSaveFilePicker', { value: undefined, configurable: true });
    });
  }
  const { imageUid } = await patientWithImageByApi(patient, doctor, 'Wrist, <b>two</b> views.');

  await doctor.goto(`/imageview?image=${imageUid}`);
  await expect(doctor.getByRole('heading', { name: 'Erin Endtoend' })).toBeVisible();
  const itemDownload = doctor.waitForEvent('download');
  await doctor.getByRole('button', { name: 'Download', exact: true }).click();
  const item = await itemDownload;
  expect(item.suggestedFilename()).toMatch(/^radiology-archive-image-\d{4}-\d{2}-\d{2}-[0-9a-f]{8}\.zip$/);
  const itemZip = await fs.readFile(await item.path());
  expect(namesIn(itemZip)).toEqual(['index.html', 'archive.json', 'IMAGES/IMG00001.png']);
  await expect(doctor.getByText('Download complete.')).toBeVisible();

  await patient.goto('/dashboard');
  const archiveDownload = patient.waitForEvent('download');
  await patient.getByRole('button', { name: 'Download my archive' }).click();
  const archive = await archiveDownload;
  const archiveZip = await fs.readFile(await archive.path());
  expect(namesIn(archiveZip)).toEqual(['index.html', 'archive.json', 'IMAGES/IMG00001.png']);
  await expect(patient.getByText('Download complete.')).toBeVisible();
});
