import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ctPhantom, PHANTOM_HU, writeCtPhantom, type CtPhantom } from '../../server/test/ct-phantom.js';
import { addPatientByApi, createPatientAccount, DEMO_PASSWORD, signInByApi } from '../fixtures/accounts.js';
import { storeStudyByApi } from '../fixtures/dicomweb.js';
import { drag, measurementTexts } from '../fixtures/viewer.js';

const SLICES = 12;

/** Phantom series of one study (so of one frame of reference), stored for a new patient of the physician. */
async function patientWithPhantoms(
  browser: Browser,
  seriesCount: number,
  viewport = { width: 1366, height: 768 },
) {
  const patient = await (await browser.newContext({ viewport })).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const account = await createPatientAccount(patient);
  const { token: patientToken, user } = await signInByApi(patient, account.email, account.password);
  const { token } = await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(doctor, token, account);
  const first = ctPhantom({ slices: SLICES, patientName: 'Endtoend^Erin', birthDate: '19910615' });
  const phantoms: CtPhantom[] = [first];
  for (let index = 1; index < seriesCount; index += 1) {
    phantoms.push({
      ...ctPhantom({ slices: SLICES, patientName: 'Endtoend^Erin', birthDate: '19910615' }),
      studyUid: first.studyUid,
      seriesNumber: index + 1,
      seriesDescription: `Axial phantom ${index + 1}`,
    });
  }
  const parts: Buffer[] = [];
  for (const phantom of phantoms) {
    const files = await writeCtPhantom(await fs.mkdtemp(path.join(os.tmpdir(), 'ra-reading-')), phantom);
    parts.push(...(await Promise.all(files.map((file) => fs.readFile(file)))));
  }
  await storeStudyByApi(doctor, token, parts, { patientUid: user.uid });
  const listed = await patient.request.get(`/api/user/${user.uid}/images`, {
    headers: { authorization: `Bearer ${patientToken}` },
  });
  const { images } = (await listed.json()) as { images: { uid: string }[] };
  return { patient, itemUid: images[0]!.uid, phantom: first };
}

/** Waits for every viewport of the page to draw its first image. */
async function waitForImages(page: Page, count: number) {
  const stages = page.getByTestId('viewer-stage');
  await expect(stages).toHaveCount(count, { timeout: 30_000 });
  for (let index = 0; index < count; index += 1) {
    await expect(stages.nth(index)).toHaveAttribute('data-first-image-ms', /^\d+$/, { timeout: 30_000 });
  }
}

test('the probe on a CT phantom shows the HU under it', async ({ browser }) => {
  test.setTimeout(90_000);
  const { patient, itemUid, phantom } = await patientWithPhantoms(browser, 1, { width: 1400, height: 1100 });
  await patient.goto(`/imageview?image=${itemUid}`);
  await waitForImages(patient, 1);
  // The middle slice (not the first: Cornerstone's own reading missed every slice but the first).
  await expect(patient.getByTestId('overlay-slice')).toHaveText(`Im ${SLICES / 2 + 1} / ${SLICES}`);

  const box = (await patient.getByTestId('viewer-viewport').boundingBox())!;
  const pixelsPerMm = Math.min(box.width, box.height) / (phantom.columns * phantom.pixelSpacing);
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await patient.getByRole('button', { name: 'Probe', exact: true }).click();
  // The sphere at the centre, then the water 60 mm below it.
  await patient.mouse.click(x, y);
  await expect.poll(() => measurementTexts(patient)).toBe(`${PHANTOM_HU.sphere} HU`);
  await patient.mouse.click(x, y + 60 * pixelsPerMm);
  await expect.poll(() => measurementTexts(patient)).toBe(`${PHANTOM_HU.sphere} HU | ${PHANTOM_HU.water} HU`);
  await expect(patient.getByTestId('annotation-status')).toHaveText('Your measurements are saved.');
  void drag;
});
