import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ctPhantom, writeCtPhantom } from '../../server/test/ct-phantom.js';
import { readDocument } from '../../server/test/structured-reports.js';
import { group, imageRef, LENGTH, num, region, thirdPartyReport } from '../../server/test/third-party-sr.js';
import { addPatientByApi, createPatientAccount, DEMO_PASSWORD, signInByApi } from '../fixtures/accounts.js';
import { storeStudyByApi } from '../fixtures/dicomweb.js';

const SLICES = 10;

test('a measurement from an SR stored with the study is listed, drawn on its image, and cannot be changed', async ({
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
  const patientUid = ((await me.json()) as { uid: string }).uid;

  // A CT series, and a TID 1500 report another workstation wrote: a length on the third image.
  const phantom = ctPhantom({ slices: SLICES, patientName: 'Endtoend^Erin', birthDate: '19910615' });
  const files = await writeCtPhantom(await fs.mkdtemp(path.join(os.tmpdir(), 'ra-phantom-')), phantom);
  const parts = await Promise.all(files.map((file) => fs.readFile(file)));
  const third = String(readDocument(parts[2]!).SOPInstanceUID);
  const report = thirdPartyReport(
    { studyUid: phantom.studyUid, patientName: 'Endtoend^Erin', birthDate: '19910615' },
    [group('Lesion 1', [num(LENGTH, '42', 'mm', region('POLYLINE', [20, 30, 100, 90], imageRef(third)))])],
    { observer: 'Reader^Rita^^Dr.', seriesDescription: 'E2E workstation' },
  );
  await storeStudyByApi(doctor, token, [...parts, report], { patientUid });

  const changes: string[] = [];
  patient.on('request', (request) => {
    if (request.url().includes('/annotations') && request.method() !== 'GET') {
      changes.push(`${request.method()} ${request.url()}`);
    }
  });
  await patient.goto('/imagelibrary');
  await patient.getByRole('row').filter({ hasText: 'Study' }).getByText('View', { exact: true }).click();
  const stage = patient.getByTestId('viewer-stage');
  await expect(stage).toHaveAttribute('data-first-image-ms', /^\d+$/, { timeout: 30_000 });

  // Listed with where it comes from.
  const panel = patient.getByRole('region', { name: 'Measurements from reports' });
  await expect(panel).toContainText('E2E workstation by Dr. Rita Reader');
  await expect(panel).toContainText('1 measurement');
  await expect(panel).toContainText('Length 42 mm');

  // Its button shows its image, with the measurement drawn on it.
  await panel.getByRole('button', { name: 'Show Length 42 mm from E2E workstation in the viewer' }).click();
  await expect(patient.getByTestId('overlay-slice')).toHaveText(`Im 3 / ${SLICES}`);
  const line = patient.getByTestId('viewer-viewport').locator('line[data-id^="report:"]');
  await expect(line).toHaveCount(1);

  // Clicked, dragged and deleted, it stays where it is and nothing is saved.
  const viewport = patient.getByTestId('viewer-viewport');
  // Where the line is in the viewport (the page may scroll as the stage takes the focus).
  const place = async () => {
    const [outer, inner] = [(await viewport.boundingBox())!, (await line.boundingBox())!];
    return { x: inner.x - outer.x, y: inner.y - outer.y, width: inner.width, height: inner.height };
  };
  const before = await place();
  const box = (await line.boundingBox())!;
  const middle: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
  await patient.mouse.click(...middle);
  await patient.keyboard.press('Delete');
  await patient.mouse.move(...middle);
  await patient.mouse.down();
  await patient.mouse.move(middle[0] + 60, middle[1] + 40, { steps: 8 });
  await patient.mouse.up();
  await expect(line).toHaveCount(1);
  expect(await place()).toEqual(before);
  expect(changes).toEqual([]);
});
