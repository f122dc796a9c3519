import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ctPhantom, writeCtPhantom } from '../../server/test/ct-phantom.js';
import { toast } from '../fixtures/accounts.js';
import { patientWithStudy } from '../fixtures/codec-studies.js';
import { drag, litShare, measurementTexts } from '../fixtures/viewer.js';
import { namesIn } from '../fixtures/zip.js';

test('a patient shares a study with an access code, someone without an account opens it, and revoking closes it', async ({
  browser,
}) => {
  // Two links, three browsers, a measurement and a ZIP: 1.9 min on CI's busy cores once, and past
  // 2 min behind the cluster's proxy.
  test.setTimeout(240_000);
  const phantom = ctPhantom({ slices: 8, patientName: 'Endtoend^Erin', birthDate: '19910615' });
  const files = await writeCtPhantom(await fs.mkdtemp(path.join(os.tmpdir(), 'ra-share-')), phantom);
  const { page: patient, itemUid } = await patientWithStudy(
    browser,
    await Promise.all(files.map((file) => fs.readFile(file))),
  );

  // The patient shares the study: seven days, an access code, no download.
  await patient.goto(`/imageview?image=${itemUid}`);
  await patient.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = patient.getByRole('dialog', { name: 'Share' });
  await expect(dialog.getByLabel('Link expires after')).toHaveValue('168');
  await dialog.getByLabel('Access code (optional)').fill('482913');
  await expect(dialog.getByLabel('Allow download')).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const link = dialog.getByLabel('Link');
  await expect(link).toHaveValue(/\/s\/[A-Za-z0-9_-]{43}$/);
  const url = await link.inputValue();
  await patient.keyboard.press('Escape');

  // Someone with no account opens it in a browser of their own and enters the code.
  const visitor = await (await browser.newContext({ viewport: { width: 1200, height: 1000 } })).newPage();
  await visitor.goto(url);
  await visitor.getByLabel('Access code').fill('482913');
  await visitor.getByRole('button', { name: 'Open' }).click();
  const banner = visitor.getByTestId('share-banner');
  await expect(banner).toContainText('Erin Endtoend');
  await expect(banner).toContainText('shared with you until');
  // The first image is drawn in the viewer, read through the link's DICOMweb.
  const stage = visitor.getByTestId('viewer-stage');
  await expect(stage).toHaveAttribute('data-first-image-ms', /^\d+$/, { timeout: 30_000 });
  await expect.poll(() => litShare(visitor), { timeout: 15_000 }).toBeGreaterThan(0.05);
  // The visitor measures: the length tool works on the shared study (nothing is saved).
  await visitor.getByRole('button', { name: 'Length', exact: true }).click();
  const box = (await visitor.getByTestId('viewer-viewport').boundingBox())!;
  const centre: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
  await drag(visitor, [centre[0] - 100, centre[1]], [centre[0] + 100, centre[1]]);
  await expect.poll(() => measurementTexts(visitor)).toMatch(/\d+(\.\d+)? mm/);
  // Read-only: no download, no share, no app navigation.
  await expect(visitor.getByRole('button', { name: /download/i })).toHaveCount(0);
  await expect(visitor.getByRole('link', { name: /download/i })).toHaveCount(0);
  await expect(visitor.getByRole('button', { name: 'Share', exact: true })).toHaveCount(0);
  await expect(visitor.getByRole('banner')).toHaveCount(0);

  // The patient sees the opening in Access History, by the link.
  await patient.goto('/access-history');
  await expect(
    patient
      .getByTestId('access-visit')
      .filter({ hasText: /Link shared \d{4}-\d{2}-\d{2}/ })
      .first(),
  ).toBeVisible();

  // The patient revokes the link; the visitor's reload finds it gone.
  await patient.goto('/shares');
  const row = patient.getByTestId('share-row').first();
  await expect(row).toContainText('Yes');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await patient
    .getByRole('dialog', { name: 'Revoke this link?' })
    .getByRole('button', { name: 'Revoke link' })
    .click();
  await expect(toast(patient, 'The link was revoked.')).toBeVisible();
  await expect(row).toContainText('Revoked');

  await visitor.reload();
  await expect(visitor.getByRole('heading', { name: 'This link is not available.' })).toBeVisible();

  // A second link allows downloading: the visitor takes the study home as a ZIP.
  await patient.goto(`/imageview?image=${itemUid}`);
  await patient.getByRole('button', { name: 'Share', exact: true }).click();
  await dialog.getByLabel('Allow download').check();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await expect(link).toHaveValue(/\/s\/[A-Za-z0-9_-]{43}$/);
  const downloadUrl = await link.inputValue();
  // Chromium would ask where to save (File System Access), a dialog Playwright cannot answer.
  await visitor.addInitScript(() => {
    Object.defineProperty(window, 'showSaveFilePicker', { value: undefined, configurable: true });
  });
  await visitor.goto(downloadUrl);
  await expect(visitor.getByTestId('share-banner')).toContainText('You may download a copy.');
  const download = visitor.waitForEvent('download');
  await visitor.getByRole('button', { name: 'Download the images (ZIP)' }).click();
  const zip = await fs.readFile(await (await download).path());
  const names = namesIn(zip);
  expect(names).toContain('DICOMDIR');
  expect(names.filter((name) => /^DICOM\/S\d+\/SE\d+\/IM\d+$/.test(name))).toHaveLength(files.length);
  expect(names).toContain('archive.json');
  await expect(visitor.getByText('Download complete.')).toBeVisible();
});
