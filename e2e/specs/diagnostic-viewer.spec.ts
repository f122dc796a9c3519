import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ctPhantom, PHANTOM_HU, writeCtPhantom } from '../../server/test/ct-phantom.js';
import {
  addPatientByApi,
  createPatientAccount,
  DEMO_PASSWORD,
  signInByApi,
  toast,
} from '../fixtures/accounts.js';
import { storeStudyByApi } from '../fixtures/dicomweb.js';
import { canvasPixels, drag, measurementTexts, settledMeasurementTexts } from '../fixtures/viewer.js';

const SLICES = 40;

/** A physician stores a generated CT phantom of known geometry for the patient by STOW-RS. */
async function storePhantom(doctor: Page, token: string, patientUid: string) {
  const phantom = ctPhantom({ slices: SLICES, patientName: 'Endtoend^Erin', birthDate: '19910615' });
  const files = await writeCtPhantom(await fs.mkdtemp(path.join(os.tmpdir(), 'ra-phantom-')), phantom);
  const parts = await Promise.all(files.map((file) => fs.readFile(file)));
  await storeStudyByApi(doctor, token, parts, { patientUid });
  return phantom;
}

test('the viewer reads a CT phantom: millimetres and HU are right, the window drags, the stack scrolls and plays', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const patient = await (await browser.newContext({ viewport: { width: 1400, height: 1100 } })).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const account = await createPatientAccount(patient);
  const { token: patientToken } = await signInByApi(patient, account.email, account.password);
  const { token } = await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(doctor, token, account);
  const me = await patient.request.get('/api/user/me', {
    headers: { authorization: `Bearer ${patientToken}` },
  });
  const phantom = await storePhantom(doctor, token, ((await me.json()) as { uid: string }).uid);

  const frameRequests: string[] = [];
  patient.on('request', (request) => {
    if (request.url().includes('/frames/')) {
      frameRequests.push(request.url());
    }
  });
  await patient.goto('/imagelibrary');
  await patient.getByRole('row').filter({ hasText: 'Study' }).getByText('View', { exact: true }).click();
  await patient.getByRole('button', { name: /CT · Series 1/ }).click();

  // The middle slice comes first, in the file's window.
  const stage = patient.getByTestId('viewer-stage');
  await expect(stage).toHaveAttribute('data-first-image-ms', /^\d+$/, { timeout: 30_000 });
  test.info().annotations.push({
    type: 'first image drawn',
    description: `${await stage.getAttribute('data-first-image-ms')} ms after the viewer mounted`,
  });
  const middle = Math.floor(SLICES / 2) + 1;
  await expect(patient.getByTestId('overlay-slice')).toHaveText(`Im ${middle} / ${SLICES}`);
  await expect(patient.getByTestId('overlay-window')).toHaveText('W 400 L 40');
  await expect(patient.getByText(`Loaded ${SLICES} of ${SLICES} images`)).toBeHidden({ timeout: 30_000 });
  // Every frame was asked for once: the first image and the prefetch do not fetch one twice.
  expect(frameRequests.length).toBe(SLICES);
  expect(new Set(frameRequests).size).toBe(SLICES);

  // The image fills the viewport's smaller side at zoom 1: so many screen pixels per millimetre.
  const box = (await patient.getByTestId('viewer-viewport').boundingBox())!;
  const centre: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
  const pixelsPerMm = Math.min(box.width, box.height) / (phantom.columns * phantom.pixelSpacing);
  // The zoom readout is the image's true size: screen pixels per image pixel, here the fit's.
  const fittedZoom = Math.min(box.width, box.height) / phantom.columns;
  const zoomShown = async () =>
    Number(/Zoom ([\d.]+)×/.exec((await patient.getByTestId('overlay-zoom').textContent()) ?? '')?.[1]);
  expect(Math.abs((await zoomShown()) - fittedZoom)).toBeLessThanOrEqual(0.01);

  // A length of 80 mm drawn across the water reads 80 mm.
  await patient.getByRole('button', { name: 'Length', exact: true }).click();
  const halfLength = 40 * pixelsPerMm;
  await drag(
    patient,
    [centre[0] - halfLength, centre[1] + 60 * pixelsPerMm],
    [centre[0] + halfLength, centre[1] + 60 * pixelsPerMm],
  );
  // The text follows the drag; it settles once the last move is drawn.
  const readLength = async () => Number(/([\d.]+) mm/.exec(await measurementTexts(patient))?.[1] ?? NaN);
  await expect.poll(async () => Math.abs((await readLength()) - 80)).toBeLessThanOrEqual(0.1);
  const length = await readLength();

  // An ellipse inside the sphere of the middle slice (drawn from its centre) reads the sphere's HU.
  await patient.getByRole('button', { name: 'Ellipse', exact: true }).click();
  const roi = 15 * pixelsPerMm;
  await drag(patient, centre, [centre[0] + roi, centre[1] + roi]);
  const readMean = async () =>
    Number(/Mean: (-?[\d.]+) HU/.exec(await measurementTexts(patient))?.[1] ?? NaN);
  await expect.poll(async () => Math.abs((await readMean()) - PHANTOM_HU.sphere)).toBeLessThanOrEqual(1);

  // Both are saved as the patient's own annotations, in the frame's pixels.
  await expect(patient.getByTestId('annotation-status')).toHaveText('Your measurements are saved.');
  const item = new URL(patient.url()).searchParams.get('image')!;
  const listed = await patient.request.get(`/api/image/${item}/annotations`, {
    headers: { authorization: `Bearer ${patientToken}` },
  });
  const { annotations } = (await listed.json()) as {
    annotations: { kind: string; frame: { frame: number }; data: { points: [number, number][] } }[];
  };
  expect(annotations.map((annotation) => annotation.kind).sort()).toEqual(['ellipse', 'length']);
  const line = annotations.find((annotation) => annotation.kind === 'length')!;
  const [[x1, y1], [x2, y2]] = line.data.points as [[number, number], [number, number]];
  // 80 mm at 0.5 mm a pixel, 60 mm below the centre of the 512-pixel frame.
  expect(Math.abs(Math.hypot(x2 - x1, y2 - y1) - 160)).toBeLessThan(0.2);
  expect(Math.abs(y1 - (256 + 120))).toBeLessThan(1);

  // Dragging with the window tool changes the window and the picture.
  await patient.getByRole('button', { name: 'Window', exact: true }).click();
  const before = await canvasPixels(patient);
  await drag(patient, [centre[0] - 100, centre[1] - 150], [centre[0] + 20, centre[1] - 90]);
  await expect(patient.getByTestId('overlay-window')).not.toHaveText('W 400 L 40');
  expect(await canvasPixels(patient)).not.toBe(before);
  // The file's own window comes back from the presets.
  await patient.getByRole('button', { name: 'Window preset' }).click();
  await patient.getByRole('button', { name: 'From the file (W 400 L 40)' }).click();
  await expect(patient.getByTestId('overlay-window')).toHaveText('W 400 L 40');
  // Reset shows the same fit, and says the same zoom, as the first drawing.
  await patient.getByRole('button', { name: 'Reset', exact: true }).click();
  await expect.poll(async () => Math.abs((await zoomShown()) - fittedZoom)).toBeLessThanOrEqual(0.01);

  // The wheel and the keys move through the stack.
  await patient.mouse.move(...centre);
  await patient.mouse.wheel(0, 120);
  await expect(patient.getByTestId('overlay-slice')).toHaveText(`Im ${middle + 1} / ${SLICES}`);
  await stage.focus();
  await patient.keyboard.press('End');
  await expect(patient.getByTestId('overlay-slice')).toHaveText(`Im ${SLICES} / ${SLICES}`);
  await patient.keyboard.press('ArrowUp');
  await expect(stage).toHaveAttribute('data-slice', String(SLICES - 1));
  await expect(patient.getByRole('slider')).toHaveValue(String(SLICES - 1));

  // Cine plays through the stack until stopped.
  await patient.getByRole('button', { name: 'Play cine' }).click();
  const seen = new Set<string>();
  await expect
    .poll(async () => {
      seen.add((await stage.getAttribute('data-slice')) ?? '');
      return seen.size;
    })
    .toBeGreaterThan(3);
  await patient.getByRole('button', { name: 'Stop cine' }).click();
  await expect(patient.getByRole('button', { name: 'Play cine' })).toHaveAttribute('aria-pressed', 'false');

  // The measurements come back with the page.
  await patient.reload();
  await patient.getByRole('button', { name: /CT · Series 1/ }).click();
  await expect(patient.getByTestId('viewer-stage')).toHaveAttribute('data-first-image-ms', /^\d+$/, {
    timeout: 30_000,
  });
  await expect.poll(() => measurementTexts(patient)).toContain(`${length.toFixed(1)} mm`);
  await expect.poll(() => measurementTexts(patient)).toMatch(/Mean: 100(\.0)? HU/);
});

test('a radiologist measures a paid study; the patient sees the measurement once the analysis is written', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const patient = await (await browser.newContext()).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const radiologist = await (await browser.newContext({ viewport: { width: 1400, height: 1100 } })).newPage();
  const account = await createPatientAccount(patient);
  const { token: patientToken } = await signInByApi(patient, account.email, account.password);
  const { token } = await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(doctor, token, account);
  const asPatient = { headers: { authorization: `Bearer ${patientToken}` } };
  const me = (await (await patient.request.get('/api/user/me', asPatient)).json()) as { uid: string };
  await storePhantom(doctor, token, me.uid);

  // The patient pays Dr. John Radiologist for an opinion on the study (the sandbox's payment).
  const { images } = (await (await patient.request.get(`/api/user/${me.uid}/images`, asPatient)).json()) as {
    images: { uid: string; kind: string }[];
  };
  const study = images.find((image) => image.kind === 'study')!;
  const { radiologists } = (await (
    await patient.request.get('/api/user/radiologists', asPatient)
  ).json()) as {
    radiologists: { uid: string; first_name: string }[];
  };
  const john = radiologists.find((candidate) => candidate.first_name === 'John')!;
  const invoiced = await patient.request.post(`/api/payment/${john.uid}/invoice`, {
    ...asPatient,
    data: { image: study.uid },
  });
  expect(invoiced.status()).toBe(201);
  const { invoice } = (await invoiced.json()) as { invoice: { uid: string } };
  expect((await patient.request.post(`/api/payment/sandbox/${invoice.uid}/pay`, asPatient)).status()).toBe(
    200,
  );

  // He measures the sphere's diameter, then writes his analysis.
  await signInByApi(radiologist, 'radiologist@example.com', DEMO_PASSWORD);
  await radiologist.goto(`/imageview?image=${study.uid}`);
  await radiologist.getByRole('button', { name: /CT · Series 1/ }).click();
  // A new browser context: the viewer's code and decoder start cold, as in the first test.
  await expect(radiologist.getByTestId('viewer-stage')).toHaveAttribute('data-first-image-ms', /^\d+$/, {
    timeout: 30_000,
  });
  await radiologist.getByRole('button', { name: 'Length', exact: true }).click();
  const box = (await radiologist.getByTestId('viewer-viewport').boundingBox())!;
  const pixelsPerMm = Math.min(box.width, box.height) / 256;
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await drag(radiologist, [x - 30 * pixelsPerMm, y], [x + 30 * pixelsPerMm, y]);
  await expect(radiologist.getByTestId('annotation-status')).toHaveText('Your measurements are saved.');
  const measured = /([\d.]+) mm/.exec(await settledMeasurementTexts(radiologist))![1]!;

  // Before the analysis, the patient sees none of his marks.
  const listed = async () =>
    (
      (await (await patient.request.get(`/api/image/${study.uid}/annotations`, asPatient)).json()) as {
        annotations: { author: { role: string } }[];
      }
    ).annotations;
  expect(await listed()).toEqual([]);

  // He marks the first slice, in the lung window, as the key image of his analysis.
  const stage = radiologist.getByTestId('viewer-stage');
  await stage.focus();
  await radiologist.keyboard.press('Home');
  await expect(radiologist.getByTestId('overlay-slice')).toHaveText(`Im 1 / ${SLICES}`);
  await radiologist.keyboard.press('2');
  await expect(radiologist.getByTestId('overlay-window')).toHaveText('W 1500 L -600');
  await radiologist.keyboard.press('k');
  await expect(radiologist.getByRole('button', { name: 'Key image', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(radiologist.getByRole('link', { name: 'Key image 1 (W 1500 L -600)' })).toBeVisible();

  await radiologist.getByLabel('Notes').fill('A 60 mm sphere of +100 HU in water. No other finding.');
  await radiologist.getByRole('button', { name: 'Submit Analysis' }).click();
  await expect(toast(radiologist, 'Note updated successfully!')).toBeVisible();

  // Now the patient's viewer draws the radiologist's measurement.
  expect((await listed()).map((annotation) => annotation.author.role)).toEqual(['RADIOLOGIST']);
  await patient.goto(`/imageview?image=${study.uid}`);
  await patient.getByRole('button', { name: /CT · Series 1/ }).click();
  // Stored marks are placed once the first image is drawn (a cold viewer on a busy machine).
  await expect(patient.getByTestId('viewer-stage')).toHaveAttribute('data-first-image-ms', /^\d+$/, {
    timeout: 30_000,
  });
  await expect.poll(() => measurementTexts(patient)).toContain(`${measured} mm`);

  // His key image opens the patient's viewer on that slice, in that window.
  // Saved, it is named by where it is: the phantom's CT series and its image number.
  await patient
    .getByRole('link', { name: /^Key image 1: CT series \d+, image \d+ \(W 1500 L -600\)$/ })
    .click();
  await expect(patient.getByTestId('overlay-slice')).toHaveText(`Im 1 / ${SLICES}`, { timeout: 30_000 });
  await expect(patient.getByTestId('overlay-window')).toHaveText('W 1500 L -600');
});
