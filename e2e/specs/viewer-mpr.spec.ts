import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { newUid } from '../../server/test/dicom-files.js';
import { addPatientByApi, createPatientAccount, DEMO_PASSWORD, signInByApi } from '../fixtures/accounts.js';
import { storeStudyByApi } from '../fixtures/dicomweb.js';
import { drag, litShare as stackLitShare } from '../fixtures/viewer.js';

const run = promisify(execFile);

/**
 * An axial CT volume of known geometry: 64 × 64 images of 0.5 mm pixels, 40 slices 1.25 mm apart
 * (32 × 32 × 50 mm), air (-1000 HU) crossed by four thin bright planes: two axial ones (all of
 * slices 5 and 34) and two coronal ones (rows 12 and 52 of every slice). The superior and the
 * anterior plane are brighter (+1000 HU) than the inferior and the posterior one (+400 HU), so a
 * reformatted plane shows which way is up and which is front.
 */
const VOLUME = { rows: 64, columns: 64, slices: 40, pixelMm: 0.5, sliceMm: 1.25 };
const Z_PLANES = [
  { slice: 5, hu: 400 },
  { slice: 34, hu: 1000 },
];
const Y_PLANES = [
  { row: 12, hu: 1000 },
  { row: 52, hu: 400 },
];
const AIR_HU = -1000;

function slicePixels(slice: number): Buffer {
  const pixels = Buffer.alloc(VOLUME.rows * VOLUME.columns * 2);
  const axial = Z_PLANES.find((plane) => plane.slice === slice);
  for (let row = 0; row < VOLUME.rows; row += 1) {
    const coronal = Y_PLANES.find((plane) => plane.row === row);
    const hu = Math.max(AIR_HU, axial?.hu ?? AIR_HU, coronal?.hu ?? AIR_HU);
    for (let column = 0; column < VOLUME.columns; column += 1) {
      // Stored as HU + 1024, unsigned.
      pixels.writeUInt16LE(hu + 1024, (row * VOLUME.columns + column) * 2);
    }
  }
  return pixels;
}

async function writeVolume(): Promise<{ files: Buffer[]; sopUids: string[] }> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-mpr-'));
  const studyUid = newUid();
  const seriesUid = newUid();
  const files: Buffer[] = [];
  const sopUids: string[] = [];
  try {
    for (let slice = 0; slice < VOLUME.slices; slice += 1) {
      sopUids.push(newUid());
      const pixelFile = path.join(dir, `${slice}.raw`);
      await fs.writeFile(pixelFile, slicePixels(slice));
      const lines = [
        '(0008,0016) UI =CTImageStorage',
        `(0008,0018) UI [${sopUids[slice]}]`,
        '(0008,0020) DA [20260102]',
        '(0008,0060) CS [CT]',
        '(0008,103e) LO [MPR phantom]',
        '(0010,0010) PN [Endtoend^Erin]',
        '(0010,0020) LO [MPR-1]',
        '(0010,0030) DA [19910615]',
        `(0018,0050) DS [${VOLUME.sliceMm}]`,
        `(0020,000d) UI [${studyUid}]`,
        `(0020,000e) UI [${seriesUid}]`,
        '(0020,0011) IS [1]',
        `(0020,0013) IS [${slice + 1}]`,
        `(0020,0032) DS [-16\\-16\\${slice * VOLUME.sliceMm}]`,
        '(0020,0037) DS [1\\0\\0\\0\\1\\0]',
        `(0020,0052) UI [${studyUid}.1]`,
        '(0028,0002) US 1',
        '(0028,0004) CS [MONOCHROME2]',
        `(0028,0010) US ${VOLUME.rows}`,
        `(0028,0011) US ${VOLUME.columns}`,
        `(0028,0030) DS [${VOLUME.pixelMm}\\${VOLUME.pixelMm}]`,
        '(0028,0100) US 16',
        '(0028,0101) US 12',
        '(0028,0102) US 11',
        '(0028,0103) US 0',
        '(0028,1050) DS [0]',
        '(0028,1051) DS [2000]',
        '(0028,1052) DS [-1024]',
        '(0028,1053) DS [1]',
        `(7fe0,0010) OW =${pixelFile}`,
      ];
      const dump = path.join(dir, `${slice}.dump`);
      const file = path.join(dir, `${slice}.dcm`);
      await fs.writeFile(dump, `${lines.join('\n')}\n`);
      await run('dump2dcm', ['-q', '+te', dump, file]);
      files.push(await fs.readFile(file));
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  return { files, sopUids };
}

/** A new patient of the demo physician with `files` stored for them; the patient's page, on the study. */
async function patientWithStudy(
  browser: Browser,
  files: Buffer[],
  /** Set up before the study opens (routes that fail requests). */
  before?: (page: Page) => Promise<unknown>,
): Promise<Page> {
  const patient = await (await browser.newContext({ viewport: { width: 1600, height: 1000 } })).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const account = await createPatientAccount(patient);
  const { token: patientToken, user } = await signInByApi(patient, account.email, account.password);
  const { token } = await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(doctor, token, account);
  await storeStudyByApi(doctor, token, files, { patientUid: user.uid });
  const listed = await patient.request.get(`/api/user/${user.uid}/images`, {
    headers: { authorization: `Bearer ${patientToken}` },
  });
  const { images } = (await listed.json()) as { images: { uid: string }[] };
  await before?.(patient);
  await patient.goto(`/imageview?image=${images[0]!.uid}`);
  await expect(patient.getByTestId('viewer-stage')).toHaveAttribute('data-first-image-ms', /^\d+$/, {
    timeout: 30_000,
  });
  return patient;
}

interface Picture {
  width: number;
  height: number;
  /** Brightness (0…255) of each canvas pixel, row by row. */
  grey: number[];
  /** CSS pixels of the page per canvas pixel, and the canvas's place on the page. */
  scale: number;
  left: number;
  top: number;
}

/** A plane's drawing as its canvas holds it. */
async function pictureOf(pane: Locator): Promise<Picture> {
  return pane
    .locator('canvas')
    .first()
    .evaluate((canvas: HTMLCanvasElement) => {
      const copy = document.createElement('canvas');
      copy.width = canvas.width;
      copy.height = canvas.height;
      const context = copy.getContext('2d')!;
      context.drawImage(canvas, 0, 0);
      const { data } = context.getImageData(0, 0, copy.width, copy.height);
      const grey: number[] = [];
      for (let at = 0; at < data.length; at += 4) {
        grey.push((data[at]! + data[at + 1]! + data[at + 2]!) / 3);
      }
      const box = canvas.getBoundingClientRect();
      return {
        width: canvas.width,
        height: canvas.height,
        grey,
        scale: box.width / canvas.width,
        left: box.left,
        top: box.top,
      };
    });
}

/** The share of a picture's pixels that are lit (not black). */
function litShare(picture: Picture): number {
  return picture.grey.filter((value) => value > 24).length / picture.grey.length;
}

/**
 * The bright lines across a profile (mean brightness by row or by column): each one's centre to
 * a fraction of a pixel (its brightness-weighted centroid) and its peak.
 */
function linesOf(profile: number[]): { at: number; peak: number }[] {
  const threshold = Math.max(...profile) * 0.3;
  const lines: { at: number; peak: number }[] = [];
  let start = -1;
  for (let index = 0; index <= profile.length; index += 1) {
    const isLit = index < profile.length && profile[index]! > threshold;
    if (isLit && start < 0) {
      start = index;
    } else if (!isLit && start >= 0) {
      const values = profile.slice(start, index);
      const weight = values.reduce((sum, value) => sum + value, 0);
      const at = values.reduce((sum, value, offset) => sum + value * (start + offset), 0) / weight;
      lines.push({ at, peak: Math.max(...values) });
      start = -1;
    }
  }
  return lines;
}

/** Mean brightness of each row over columns `from`…`to`, or of each column over rows. */
function rowProfile(picture: Picture, from: number, to: number): number[] {
  return Array.from({ length: picture.height }, (_, row) => {
    let sum = 0;
    for (let column = Math.round(from); column < Math.round(to); column += 1) {
      sum += picture.grey[row * picture.width + column]!;
    }
    return sum / Math.max(1, Math.round(to) - Math.round(from));
  });
}

function columnProfile(picture: Picture, from: number, to: number): number[] {
  return Array.from({ length: picture.width }, (_, column) => {
    let sum = 0;
    for (let row = Math.round(from); row < Math.round(to); row += 1) {
      sum += picture.grey[row * picture.width + column]!;
    }
    return sum / Math.max(1, Math.round(to) - Math.round(from));
  });
}

test('MPR reformats a CT volume: three planes, the sagittal one to scale and upright, lengths in mm, crosshairs, slab, keys', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const page = await patientWithStudy(browser, (await writeVolume()).files);
  await page.getByRole('button', { name: 'MPR', exact: true }).click();

  const view = page.getByTestId('mpr-view');
  await expect(view).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await expect(view).toHaveAttribute('data-loaded', String(VOLUME.slices));
  const panes = {
    axial: page.getByTestId('mpr-pane-axial'),
    sagittal: page.getByTestId('mpr-pane-sagittal'),
    coronal: page.getByTestId('mpr-pane-coronal'),
  };
  // Each plane draws the volume (its lines on black).
  for (const pane of Object.values(panes)) {
    await expect
      .poll(async () => litShare(await pictureOf(pane)), { timeout: 20_000 })
      .toBeGreaterThan(0.005);
  }

  // The sagittal plane: the patient's top up, the front at the left, as tall as the slices times
  // their spacing and as wide as the rows times theirs.
  const sagittal = panes.sagittal;
  await expect(sagittal).toHaveAttribute('data-top', 'S');
  await expect(sagittal).toHaveAttribute('data-right', 'P');
  await expect(sagittal).toHaveAttribute('data-height-mm', String(VOLUME.slices * VOLUME.sliceMm));
  await expect(sagittal).toHaveAttribute('data-width-mm', String(VOLUME.rows * VOLUME.pixelMm));
  await expect(sagittal).toHaveAttribute('data-slices', String(VOLUME.columns));

  // And what it draws agrees: the axial planes are horizontal lines, the coronal ones vertical
  // lines, at distances whose ratio is the phantom's (29 slices of 1.25 mm against 40 rows of
  // 0.5 mm), the brighter (superior) axial one on top and the brighter (anterior) coronal one left.
  // The pointer reaches only what is in the window: the planes may sit below the page's fold.
  await sagittal.scrollIntoViewIfNeeded();
  const picture = await pictureOf(sagittal);
  const vertical = linesOf(columnProfile(picture, picture.height * 0.45, picture.height * 0.55));
  expect(vertical).toHaveLength(2);
  const [anterior, posterior] = vertical as [(typeof vertical)[0], (typeof vertical)[0]];
  const horizontal = linesOf(
    rowProfile(picture, anterior.at + 3, anterior.at + (posterior.at - anterior.at) * 0.4),
  );
  expect(horizontal).toHaveLength(2);
  const [superior, inferior] = horizontal as [(typeof horizontal)[0], (typeof horizontal)[0]];
  expect(superior.peak).toBeGreaterThan(inferior.peak);
  expect(anterior.peak).toBeGreaterThan(posterior.peak);
  const zMm = (Z_PLANES[1]!.slice - Z_PLANES[0]!.slice) * VOLUME.sliceMm;
  const yMm = (Y_PLANES[1]!.row - Y_PLANES[0]!.row) * VOLUME.pixelMm;
  const drawnRatio = (inferior.at - superior.at) / (posterior.at - anterior.at);
  test
    .info()
    .annotations.push({ type: 'sagittal ratio', description: `${drawnRatio} (expected ${zMm / yMm})` });
  expect(Math.abs(drawnRatio - zMm / yMm)).toBeLessThan(0.02 * (zMm / yMm));

  // A length from the inferior to the superior plane, drawn in the sagittal plane: 29 × 1.25 mm.
  await page.getByRole('button', { name: 'Length', exact: true }).click();
  // The click scrolled the toolbar into view, which may push the plane's lower part below the
  // window, where the pointer cannot reach: a press there would start the length at the edge.
  await sagittal.evaluate((pane) => pane.scrollIntoView({ block: 'center' }));
  // Drawn where the plane is now: a layout change since it was read (a scroll bar coming or going
  // on a busy machine) moves and rescales it. Two reads in a row must agree on its place.
  let now = await pictureOf(sagittal);
  await expect
    .poll(async () => {
      const before = now;
      now = await pictureOf(sagittal);
      return [
        now.left - before.left,
        now.top - before.top,
        now.scale - before.scale,
        now.width - before.width,
      ];
    })
    .toEqual([0, 0, 0, 0]);
  const [nowAnterior, nowPosterior] = linesOf(columnProfile(now, now.height * 0.45, now.height * 0.55));
  const [nowSuperior, nowInferior] = linesOf(
    rowProfile(now, nowAnterior!.at + 3, nowAnterior!.at + (nowPosterior!.at - nowAnterior!.at) * 0.4),
  );
  const x = now.left + (nowAnterior!.at + (nowPosterior!.at - nowAnterior!.at) * 0.25) * now.scale;
  const from = now.top + nowInferior!.at * now.scale;
  const to = now.top + nowSuperior!.at * now.scale;
  const windowSize = page.viewportSize()!;
  test.info().annotations.push({
    type: 'sagittal length drag',
    description: `x ${x}, y ${from} → ${to} in a ${windowSize.width} × ${windowSize.height} window`,
  });
  expect([x, from, to].every((at) => at > 0)).toBe(true);
  expect(Math.max(from, to)).toBeLessThan(windowSize.height);
  await drag(page, [x, from], [x, to]);
  const text = sagittal.getByTestId('mpr-viewport-sagittal').locator('svg text');
  await expect(text).toHaveCount(1);
  // The text follows the drag a frame behind it; it settles once the last move is drawn (read at
  // once, a busy machine showed the length one step of the drag short).
  let reading = '';
  await expect
    .poll(async () => {
      reading = (await text.textContent()) ?? '';
      return Math.abs(Number(/^([\d.]+) mm$/.exec(reading)?.[1] ?? NaN) - zMm);
    })
    .toBeLessThanOrEqual(0.1);
  test.info().annotations.push({ type: 'sagittal length', description: `${reading} (expected ${zMm} mm)` });

  // Crosshairs: a click in the axial plane, left of its centre, moves the sagittal plane there.
  await page.getByRole('button', { name: 'Crosshairs', exact: true }).click();
  const sagittalSlice = Number(await sagittal.getAttribute('data-slice'));
  const axialBox = (await panes.axial.boundingBox())!;
  await page.mouse.click(axialBox.x + axialBox.width * 0.5 - 60, axialBox.y + axialBox.height * 0.5 + 20);
  await expect
    .poll(async () => Math.abs(Number(await sagittal.getAttribute('data-slice')) - sagittalSlice))
    .toBeGreaterThan(5);

  // The keyboard moves the focused plane through its slices.
  const coronal = panes.coronal;
  await coronal.focus();
  const coronalSlice = Number(await coronal.getAttribute('data-slice'));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(coronal).not.toHaveAttribute('data-slice', String(coronalSlice));
  expect(Math.abs(Number(await coronal.getAttribute('data-slice')) - coronalSlice)).toBe(3);

  // A 40 mm maximum-intensity slab around the axial plane takes in both axial bright planes: the
  // whole square lights up; back to a thin plane, it does not.
  const axialBefore = litShare(await pictureOf(panes.axial));
  await page.getByLabel('Slab (mm)').fill('40');
  // A slab is drawn by software WebGL here, which takes seconds on a busy machine.
  const slabDrawn = { timeout: 30_000 };
  await expect
    .poll(async () => litShare(await pictureOf(panes.axial)), slabDrawn)
    .toBeGreaterThan(axialBefore * 3);
  await page.getByLabel('Slab (mm)').fill('0');
  await expect
    .poll(async () => litShare(await pictureOf(panes.axial)), slabDrawn)
    .toBeLessThan(axialBefore * 1.5);

  // Closing brings the stack viewer back, and it draws its image again.
  await page.getByRole('button', { name: 'Close MPR' }).click();
  await expect(page.getByTestId('viewer-stage')).toHaveAttribute('data-first-image-ms', /^\d+$/, {
    timeout: 30_000,
  });
  await expect.poll(() => stackLitShare(page)).toBeGreaterThan(0.005);
});

test('MPR says why a volume cannot be built: an image that cannot be fetched, a series too short', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const { files, sopUids } = await writeVolume();
  // The frame of slice 17 fails, for the stack viewer and for the volume.
  const page = await patientWithStudy(browser, files, (patient) =>
    patient.route(`**/instances/${sopUids[17]}/frames/**`, (route) => route.fulfill({ status: 500 })),
  );
  await page.getByRole('button', { name: 'MPR', exact: true }).click();
  await expect(page.getByTestId('mpr-error')).toContainText(
    `The volume could not be built: 1 of its ${VOLUME.slices} images could not be fetched.`,
    { timeout: 60_000 },
  );
  await expect(page.getByTestId('mpr-view')).toHaveAttribute('data-status', 'failed');
  await page.getByTestId('mpr-error').getByRole('button', { name: 'Back to the images' }).click();
  await expect(page.getByTestId('viewer-stage')).toBeVisible();

  // Three images of the series make no volume: the button is disabled and says why.
  // (A study of its own: the one above is filed under the first patient.)
  const short = await patientWithStudy(browser, (await writeVolume()).files.slice(0, 3));
  await expect(short.getByRole('button', { name: 'MPR', exact: true })).toBeDisabled();
  await expect(short.getByTestId('mpr-unavailable')).toHaveAttribute(
    'title',
    'MPR needs at least 10 images; this series has 3.',
  );
});
