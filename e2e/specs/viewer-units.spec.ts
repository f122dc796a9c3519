import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type Browser, type Page } from '@playwright/test';
import sharp from 'sharp';
import { newUid } from '../../server/test/dicom-files.js';
import {
  addPatientByApi,
  createPatientAccount,
  DEMO_PASSWORD,
  signInByApi,
  uploadImageByApi,
} from '../fixtures/accounts.js';
import { storeStudyByApi } from '../fixtures/dicomweb.js';
import { canvasPixels, drag, measurementTexts, settledMeasurementTexts } from '../fixtures/viewer.js';

const run = promisify(execFile);

/** A generated single-frame image: 8-bit monochrome, black with a white bar across its middle row band. */
interface Phantom {
  modality: 'MR' | 'DX';
  rows: number;
  columns: number;
  /** (0028,0030) row\column spacing in mm, or null for none. */
  pixelSpacing: [number, number] | null;
  /** (0018,1164) row\column spacing in mm at the detector, or null for none. */
  imagerPixelSpacing: [number, number] | null;
  slices: number;
}

const SOP_CLASS = { MR: '1.2.840.10008.5.1.4.1.1.4', DX: '1.2.840.10008.5.1.4.1.1.1.1' } as const;

function pixels(phantom: Phantom): Buffer {
  const data = Buffer.alloc(phantom.rows * phantom.columns, 20);
  const top = Math.floor(phantom.rows / 2) - 4;
  for (let row = top; row < top + 8; row += 1) {
    data.fill(220, row * phantom.columns + 20, row * phantom.columns + phantom.columns - 20);
  }
  return data;
}

/** Writes the phantom's instances with dcmtk's dump2dcm (an MR stack has a plane; a DX has none). */
async function writePhantom(phantom: Phantom): Promise<Buffer[]> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-units-'));
  const studyUid = newUid();
  const seriesUid = newUid();
  const pixelFile = path.join(dir, 'pixels.raw');
  await fs.writeFile(pixelFile, pixels(phantom));
  const files: Buffer[] = [];
  try {
    for (let index = 0; index < phantom.slices; index += 1) {
      const lines = [
        `(0008,0016) UI [${SOP_CLASS[phantom.modality]}]`,
        `(0008,0018) UI [${newUid()}]`,
        '(0008,0020) DA [20260102]',
        `(0008,0060) CS [${phantom.modality}]`,
        `(0008,103e) LO [${phantom.modality} units phantom]`,
        '(0010,0010) PN [Endtoend^Erin]',
        '(0010,0020) LO [UNITS-1]',
        '(0010,0030) DA [19910615]',
        `(0020,000d) UI [${studyUid}]`,
        `(0020,000e) UI [${seriesUid}]`,
        '(0020,0011) IS [1]',
        `(0020,0013) IS [${index + 1}]`,
        '(0028,0002) US 1',
        '(0028,0004) CS [MONOCHROME2]',
        `(0028,0010) US ${phantom.rows}`,
        `(0028,0011) US ${phantom.columns}`,
        '(0028,0100) US 8',
        '(0028,0101) US 8',
        '(0028,0102) US 7',
        '(0028,0103) US 0',
        '(0028,1050) DS [128]',
        '(0028,1051) DS [256]',
        `(7fe0,0010) OB =${pixelFile}`,
      ];
      if (phantom.modality === 'MR') {
        lines.push(
          `(0020,0032) DS [0\\0\\${index * 5}]`,
          '(0020,0037) DS [1\\0\\0\\0\\1\\0]',
          `(0020,0052) UI [${studyUid}.1]`,
          '(0018,0050) DS [5]',
        );
      } else {
        lines.push('(0020,0020) CS [L\\F]');
      }
      if (phantom.pixelSpacing) {
        lines.push(`(0028,0030) DS [${phantom.pixelSpacing.join('\\')}]`);
      }
      if (phantom.imagerPixelSpacing) {
        lines.push(`(0018,1164) DS [${phantom.imagerPixelSpacing.join('\\')}]`);
      }
      const dump = path.join(dir, `${index}.dump`);
      const file = path.join(dir, `${index}.dcm`);
      await fs.writeFile(dump, `${lines.join('\n')}\n`);
      await run('dump2dcm', ['-q', '+te', dump, file]);
      files.push(await fs.readFile(file));
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  return files;
}

/** A new patient of the demo physician, signed in on a large page; the physician's page and token. */
async function patientAndPhysician(browser: Browser) {
  const patient = await (await browser.newContext({ viewport: { width: 1400, height: 1100 } })).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const account = await createPatientAccount(patient);
  const { token: patientToken, user } = await signInByApi(patient, account.email, account.password);
  const { token } = await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(doctor, token, account);
  return { patient, patientToken, patientUid: user.uid, doctor, token };
}

async function onlyItemUid(page: Page, token: string, patientUid: string): Promise<string> {
  const response = await page.request.get(`/api/user/${patientUid}/images`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { images } = (await response.json()) as { images: { uid: string }[] };
  expect(images).toHaveLength(1);
  return images[0]!.uid;
}

/** The saved length's two points, in the image's pixels. */
async function savedLength(page: Page, token: string, itemUid: string) {
  await expect(page.getByTestId('annotation-status')).toHaveText('Your measurements are saved.');
  const listed = await page.request.get(`/api/image/${itemUid}/annotations`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const { annotations } = (await listed.json()) as {
    annotations: { kind: string; frame: unknown; data: { points: [number, number][] } }[];
  };
  expect(annotations.map((annotation) => annotation.kind)).toEqual(['length']);
  const [[x1, y1], [x2, y2]] = annotations[0]!.data.points as [[number, number], [number, number]];
  return { dx: x2 - x1, dy: y2 - y1, frame: annotations[0]!.frame };
}

/**
 * Opens the viewer, draws a horizontal length of `columns` image pixels across the middle of
 * an image of `rows` × `imageColumns` pixels, and returns the measurement's text once it settles.
 */
async function measureAcross(page: Page, image: { rows: number; columns: number }, columns: number) {
  const stage = page.getByTestId('viewer-stage');
  await expect(stage).toHaveAttribute('data-first-image-ms', /^\d+$/, { timeout: 30_000 });
  const box = (await page.getByTestId('viewer-viewport').boundingBox())!;
  // The image fits the viewport at zoom 1: so many screen pixels per image pixel.
  const scale = Math.min(box.width / image.columns, box.height / image.rows);
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.getByRole('button', { name: 'Length', exact: true }).click();
  await drag(page, [x - (columns / 2) * scale, y], [x + (columns / 2) * scale, y]);
  return settledMeasurementTexts(page);
}

test('an MR length reads millimetres from Pixel Spacing', async ({ browser }) => {
  test.setTimeout(60_000);
  const { patient, patientToken, patientUid, doctor, token } = await patientAndPhysician(browser);
  const phantom: Phantom = {
    modality: 'MR',
    rows: 256,
    columns: 256,
    pixelSpacing: [0.75, 0.75],
    imagerPixelSpacing: null,
    slices: 3,
  };
  await storeStudyByApi(doctor, token, await writePhantom(phantom), { patientUid });
  const item = await onlyItemUid(patient, patientToken, patientUid);
  await patient.goto(`/imageview?image=${item}`);

  // 160 pixels of the bar at 0.75 mm: 120 mm.
  const text = await measureAcross(patient, phantom, 160);
  test.info().annotations.push({ type: 'MR length text', description: text });
  const mm = Number(/^([\d.]+) mm$/.exec(text)?.[1]);
  expect(Math.abs(mm - 120)).toBeLessThan(1);
  const { dx, dy } = await savedLength(patient, patientToken, item);
  expect(Math.abs(mm - Math.hypot(dx * 0.75, dy * 0.75))).toBeLessThanOrEqual(0.1);
  await expect(patient.getByTestId('overlay-calibration')).toHaveText('Lengths: mm (Pixel Spacing)');
});

test('an X-ray length with only Imager Pixel Spacing reads millimetres at the detector, labelled so', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { patient, patientToken, patientUid, doctor, token } = await patientAndPhysician(browser);
  const phantom: Phantom = {
    modality: 'DX',
    rows: 400,
    columns: 300,
    pixelSpacing: null,
    imagerPixelSpacing: [0.2, 0.2],
    slices: 1,
  };
  await storeStudyByApi(doctor, token, await writePhantom(phantom), { patientUid });
  const item = await onlyItemUid(patient, patientToken, patientUid);
  await patient.goto(`/imageview?image=${item}`);

  // 200 pixels at 0.2 mm at the detector: 40 mm.
  const text = await measureAcross(patient, phantom, 200);
  test.info().annotations.push({ type: 'DX length text', description: text });
  const mm = Number(/^([\d.]+) mm \(detector\)$/.exec(text)?.[1]);
  expect(Math.abs(mm - 40)).toBeLessThan(1);
  const { dx, dy } = await savedLength(patient, patientToken, item);
  expect(Math.abs(mm - Math.hypot(dx * 0.2, dy * 0.2))).toBeLessThanOrEqual(0.1);
  await expect(patient.getByTestId('overlay-calibration')).toHaveText(
    'Lengths: mm at the detector (Imager Pixel Spacing)',
  );
});

test('a PNG opens in the viewer: lengths in pixels, brightness and contrast change the picture, zoom', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { patient, patientToken, patientUid, doctor, token } = await patientAndPhysician(browser);
  const image = { rows: 300, columns: 400 };
  // A grey ramp from left to right, so that brightness and contrast show.
  const ramp = Buffer.alloc(image.rows * image.columns * 3);
  for (let index = 0; index < image.rows * image.columns; index += 1) {
    ramp.fill(Math.round(((index % image.columns) / image.columns) * 255), index * 3, index * 3 + 3);
  }
  const png = await sharp(ramp, { raw: { width: image.columns, height: image.rows, channels: 3 } })
    .png()
    .toBuffer();
  const item = await uploadImageByApi(doctor, token, patientUid, png);
  await patient.goto(`/imageview?image=${item}`);

  const text = await measureAcross(patient, image, 250);
  test.info().annotations.push({ type: 'raster length text', description: text });
  const px = Number(/^([\d.]+) px$/.exec(text)?.[1]);
  expect(Math.abs(px - 250)).toBeLessThanOrEqual(1);
  const { dx, dy, frame } = await savedLength(patient, patientToken, item);
  expect(frame).toBeNull();
  // Cornerstone shows lengths of 100 and more in whole units.
  expect(Math.abs(px - Math.hypot(dx, dy))).toBeLessThanOrEqual(0.5);
  await expect(patient.getByTestId('overlay-calibration')).toHaveText('Lengths: px (no pixel spacing)');

  // Brightness and contrast by the left button change the picture.
  const box = (await patient.getByTestId('viewer-viewport').boundingBox())!;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 3];
  await patient.getByRole('button', { name: 'Brightness/contrast', exact: true }).click();
  const before = await canvasPixels(patient);
  await drag(patient, [x, y], [x + 80, y + 60]);
  await expect.poll(() => canvasPixels(patient)).not.toBe(before);

  // The right button zooms: the readout (screen pixels per image pixel) grows.
  const zoom = patient.getByTestId('overlay-zoom');
  const fitted = Number(/Zoom ([\d.]+)×/.exec((await zoom.textContent()) ?? '')?.[1]);
  await drag(patient, [x, y], [x, y + 80], 'right');
  await expect
    .poll(async () => Number(/Zoom ([\d.]+)×/.exec((await zoom.textContent()) ?? '')?.[1]))
    .toBeGreaterThan(fitted);

  // The length comes back with the page.
  await patient.reload();
  await expect.poll(() => measurementTexts(patient)).toBe(text);
});

/** A multi-frame ultrasound clip: `frames` frames of 64 × 64, each a flat grey of its own. */
async function writeCineClip(frames: number): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-cine-'));
  try {
    const side = 64;
    const pixels = Buffer.alloc(side * side * frames);
    for (let frame = 0; frame < frames; frame += 1) {
      pixels.fill(20 + frame * 25, frame * side * side, (frame + 1) * side * side);
    }
    await fs.writeFile(path.join(dir, 'pixels.raw'), pixels);
    const lines = [
      '(0008,0016) UI [1.2.840.10008.5.1.4.1.1.3.1]',
      `(0008,0018) UI [${newUid()}]`,
      '(0008,0020) DA [20260102]',
      '(0008,0060) CS [US]',
      '(0008,103e) LO [Cardiac clip]',
      '(0010,0010) PN [Endtoend^Erin]',
      '(0010,0020) LO [UNITS-1]',
      '(0010,0030) DA [19910615]',
      `(0020,000d) UI [${newUid()}]`,
      `(0020,000e) UI [${newUid()}]`,
      '(0020,0011) IS [1]',
      '(0020,0013) IS [1]',
      '(0028,0002) US 1',
      '(0028,0004) CS [MONOCHROME2]',
      `(0028,0008) IS [${frames}]`,
      `(0028,0010) US ${side}`,
      `(0028,0011) US ${side}`,
      '(0028,0100) US 8',
      '(0028,0101) US 8',
      '(0028,0102) US 7',
      '(0028,0103) US 0',
      '(0028,1050) DS [128]',
      '(0028,1051) DS [256]',
      `(7fe0,0010) OB =${path.join(dir, 'pixels.raw')}`,
    ];
    await fs.writeFile(path.join(dir, 'clip.dump'), `${lines.join('\n')}\n`);
    await run('dump2dcm', ['-q', '+te', path.join(dir, 'clip.dump'), path.join(dir, 'clip.dcm')]);
    return await fs.readFile(path.join(dir, 'clip.dcm'));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

test('a multi-frame ultrasound clip plays as a stack: one image per frame, scrolled and played', async ({
  browser,
}) => {
  test.setTimeout(60_000);
  const { patient, patientToken, patientUid, doctor, token } = await patientAndPhysician(browser);
  const frames = 8;
  await storeStudyByApi(doctor, token, [await writeCineClip(frames)], { patientUid });
  await patient.goto(`/imageview?image=${await onlyItemUid(patient, patientToken, patientUid)}`);

  const stage = patient.getByTestId('viewer-stage');
  const slice = patient.getByTestId('overlay-slice');
  await expect(stage).toHaveAttribute('data-first-image-ms', /^\d+$/, { timeout: 30_000 });
  await expect(slice).toHaveText(`Im ${frames / 2 + 1} / ${frames}`);
  const middle = await canvasPixels(patient);
  await stage.focus();
  await patient.keyboard.press('End');
  await expect(slice).toHaveText(`Im ${frames} / ${frames}`);
  // Each frame is its own picture.
  await expect.poll(() => canvasPixels(patient)).not.toBe(middle);

  await patient.keyboard.press('Home');
  await expect(slice).toHaveText(`Im 1 / ${frames}`);
  await patient.getByRole('button', { name: 'Play cine' }).click();
  await expect(slice).not.toHaveText(`Im 1 / ${frames}`);
  await patient.getByRole('button', { name: 'Stop cine' }).click();
});
