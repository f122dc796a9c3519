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
});

test('the reading room fills a 1366 × 768 window without scrolling, its toolbar in one row, its keys from anywhere in it', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const { patient, itemUid } = await patientWithPhantoms(browser, 1);
  await patient.goto(`/imageview?image=${itemUid}`);
  await patient.getByRole('button', { name: 'Open in reading room' }).click();
  const room = patient.getByTestId('reading-room');
  await expect(room).toBeVisible();
  await waitForImages(patient, 1);

  // Nothing to scroll: the room is the window, the viewport fills what the bars leave.
  const page = await patient.evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    scrollWidth: document.documentElement.scrollWidth,
    width: window.innerWidth,
    height: window.innerHeight,
  }));
  expect(page.scrollHeight).toBeLessThanOrEqual(page.height);
  expect(page.scrollWidth).toBeLessThanOrEqual(page.width);
  expect(await room.boundingBox()).toEqual({ x: 0, y: 0, width: 1366, height: 768 });
  const stage = (await patient.getByTestId('viewer-stage').boundingBox())!;
  expect(stage.y + stage.height).toBeLessThanOrEqual(768);
  expect(stage.height).toBeGreaterThan(550);

  // The toolbar is one row of named icon buttons.
  const toolbar = patient.getByRole('toolbar', { name: 'Viewer tools' });
  // (Entries of other heights, as the frame rate's field, sit a pixel lower: a second row would be a
  // button's height lower.)
  const tops = await toolbar
    .locator('.toolbar-entry')
    .evaluateAll((entries) => entries.map((entry) => entry.getBoundingClientRect().top));
  expect(tops.length).toBeGreaterThan(10);
  expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(8);
  expect((await toolbar.boundingBox())!.height).toBeLessThan(48);
  await expect(toolbar.getByRole('button', { name: 'Length' })).toHaveAttribute('title', 'Length (l)');

  // A shortcut works once a toolbar button has the focus.
  const slice = patient.getByTestId('overlay-slice');
  await toolbar.getByRole('button', { name: 'Invert' }).click();
  await patient.keyboard.press('End');
  await expect(slice).toHaveText(`Im ${SLICES} / ${SLICES}`);
  await patient.keyboard.press('p');
  await expect(toolbar.getByRole('button', { name: 'Pan' })).toHaveAttribute('aria-pressed', 'true');

  // On the slider, Page Down is ten images as on the image, and the two agree.
  const slider = patient.getByRole('slider');
  await slider.focus();
  await patient.keyboard.press('Home');
  await expect(slice).toHaveText(`Im 1 / ${SLICES}`);
  await patient.keyboard.press('PageDown');
  await expect(slice).toHaveText(`Im 11 / ${SLICES}`);
  await expect(slider).toHaveValue('11');
  await patient.keyboard.press('ArrowUp');
  await expect(slice).toHaveText(`Im 10 / ${SLICES}`);
  await expect(slider).toHaveValue('10');

  // Back on the study's page, with the rest of it.
  await patient.getByRole('button', { name: '← Study page' }).click();
  await expect(room).toBeHidden();
  await expect(patient.getByRole('heading', { name: 'Want a Second Opinion?' })).toBeVisible();
});

test('two series of one frame of reference scroll, window and zoom together until unlinked', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { patient, itemUid } = await patientWithPhantoms(browser, 2);
  await patient.goto(`/imageview?image=${itemUid}&reading=1`);
  // Two CT series hang side by side, linked since they share a frame of reference.
  await waitForImages(patient, 2);
  const link = patient.getByRole('button', { name: 'Link viewports' });
  await expect(link).toHaveAttribute('aria-pressed', 'true');
  const [left, right] = [0, 1].map((index) => patient.getByTestId('viewer-stage').nth(index));
  const sliceOf = (stage: typeof left) => stage!.getByTestId('overlay-slice');
  const windowOf = (stage: typeof left) => stage!.getByTestId('overlay-window');
  const zoomOf = async (stage: typeof left) =>
    Number(/Zoom ([\d.]+)×/.exec((await stage!.getByTestId('overlay-zoom').textContent()) ?? '')?.[1]);
  await expect(sliceOf(right)).toHaveText(`Im ${SLICES / 2 + 1} / ${SLICES}`);

  // Scrolling the left scrolls the right to the same place.
  const box = (await left!.boundingBox())!;
  const centre: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
  await patient.mouse.move(...centre);
  await patient.mouse.wheel(0, 120);
  await expect(sliceOf(left)).toHaveText(`Im ${SLICES / 2 + 2} / ${SLICES}`);
  await expect(sliceOf(right)).toHaveText(`Im ${SLICES / 2 + 2} / ${SLICES}`);
  await left!.focus();
  await patient.keyboard.press('End');
  await expect(sliceOf(right)).toHaveText(`Im ${SLICES} / ${SLICES}`);

  // Windowing the left windows the right.
  await drag(patient, [centre[0] - 80, centre[1] - 80], [centre[0] + 40, centre[1] - 20]);
  await expect(windowOf(left)).not.toHaveText('W 400 L 40');
  await expect(windowOf(right)).toHaveText((await windowOf(left).textContent())!);

  // Zooming the left zooms the right.
  const fitted = await zoomOf(right);
  await drag(patient, centre, [centre[0], centre[1] + 80], 'right');
  await expect.poll(() => zoomOf(right)).toBeGreaterThan(fitted * 1.1);
  await expect.poll(async () => Math.abs((await zoomOf(left)) - (await zoomOf(right)))).toBeLessThan(0.01);

  // Unlinked, each goes its own way.
  await link.click();
  await expect(link).toHaveAttribute('aria-pressed', 'false');
  const rightWindow = (await windowOf(right).textContent())!;
  await left!.click({ position: { x: 10, y: box.height - 10 } });
  await patient.keyboard.press('Home');
  await expect(sliceOf(left)).toHaveText(`Im 1 / ${SLICES}`);
  await drag(patient, [centre[0] + 40, centre[1] - 20], [centre[0] - 60, centre[1] + 40]);
  await expect(windowOf(left)).not.toHaveText(rightWindow);
  // Give a stray synchronisation the time to show.
  await patient.waitForTimeout(500);
  await expect(sliceOf(right)).toHaveText(`Im ${SLICES} / ${SLICES}`);
  await expect(windowOf(right)).toHaveText(rightWindow);
});
