import { expect, test, type Page } from '@playwright/test';
import { newUid, sampleCopy } from '../../server/test/dicom-files.js';
import {
  SYNTAX_SAMPLES,
  jpeg2000Ct,
  jpegLsPhantom,
  patientWithStudy,
  undecodableJpeg2000,
} from '../fixtures/codec-studies.js';
import { litShare } from '../fixtures/viewer.js';

// The decoders are WebAssembly in web workers: a page that may not compile it shows nothing.
test.describe.configure({ timeout: 90_000 });

async function openSeries(page: Page, itemUid: string, series: RegExp) {
  await page.goto(`/imageview?image=${itemUid}`);
  await page.getByRole('button', { name: series }).click();
}

async function expectDrawn(page: Page) {
  await expect(page.getByTestId('viewer-stage')).toHaveAttribute('data-first-image-ms', /^\d+$/, {
    timeout: 30_000,
  });
  await expect.poll(() => litShare(page), { timeout: 15_000 }).toBeGreaterThan(0.05);
}

async function expectNoFailure(page: Page) {
  await expect(page.getByText(/could not be (loaded|decoded|fetched)/)).toHaveCount(0);
}

test('a JPEG 2000 CT opens in the viewer and is drawn', async ({ browser }) => {
  const { page, itemUid } = await patientWithStudy(browser, [await jpeg2000Ct()]);
  await openSeries(page, itemUid, /CT · Series 1/);
  await expectDrawn(page);
  await expectNoFailure(page);
});

test('a JPEG-LS study opens in the viewer, every image of it decoded', async ({ browser }) => {
  const { page, itemUid } = await patientWithStudy(browser, await jpegLsPhantom(3));
  await openSeries(page, itemUid, /CT · Series 1/);
  await expectDrawn(page);
  await expect(page.getByTestId('viewer-progress')).toBeHidden({ timeout: 30_000 });
  await expectNoFailure(page);
});

for (const { syntax, file } of SYNTAX_SAMPLES) {
  test(`a file in ${syntax} opens in the viewer and is drawn`, async ({ browser }) => {
    const { page, itemUid } = await patientWithStudy(browser, [await file()]);
    await openSeries(page, itemUid, /Series 1/);
    await expectDrawn(page);
    await expectNoFailure(page);
  });
}

test('an image whose frame cannot be decoded says so, and the progress does not wait for it', async ({
  browser,
}) => {
  // Two NM images of one series: the first damaged, the second (where the viewer opens) whole.
  const studyUid = newUid();
  const seriesUid = newUid();
  const damaged = await undecodableJpeg2000({ studyUid, seriesUid, instanceNumber: 1 });
  const whole = await sampleCopy('JPEG2000.dcm', {
    patientName: 'Endtoend^Erin',
    birthDate: '19910615',
    studyUid,
    seriesUid,
    seriesNumber: 1,
    instanceNumber: 2,
  });
  const { page, itemUid } = await patientWithStudy(browser, [damaged, whole]);
  await openSeries(page, itemUid, /NM · Series 1/);
  await expectDrawn(page);

  // The prefetch meets the damaged image: counted as failed, not awaited for ever.
  await expect(page.getByText('1 of 2 images could not be decoded.')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('viewer-progress')).toBeHidden();

  // Shown, it is an error in words, not a black viewport.
  await page.getByTestId('viewer-stage').focus();
  await page.keyboard.press('Home');
  await expect(page.getByTestId('overlay-slice')).toHaveText('Im 1 / 2');
  await expect(page.getByRole('alert')).toContainText('Image 1 could not be decoded');
});
