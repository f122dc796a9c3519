import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ctPhantom, writeCtPhantom } from '../../server/test/ct-phantom.js';
import { addPatientByApi, createPatientAccount, DEMO_PASSWORD, signInByApi } from '../fixtures/accounts.js';
import { storeStudyByApi } from '../fixtures/dicomweb.js';
import { drag } from '../fixtures/viewer.js';

const SLICES = 8;

/** A CT phantom study of the given date (YYYYMMDD), as its files. */
async function phantomStudy(studyDate: string): Promise<{ studyUid: string; files: Buffer[] }> {
  const phantom = ctPhantom({
    slices: SLICES,
    patientName: 'Endtoend^Erin',
    birthDate: '19910615',
    studyDate,
  });
  const paths = await writeCtPhantom(await fs.mkdtemp(path.join(os.tmpdir(), 'ra-prior-')), phantom);
  return { studyUid: phantom.studyUid, files: await Promise.all(paths.map((file) => fs.readFile(file))) };
}

/** Waits for `count` viewports to draw their first image. */
async function waitForImages(page: Page, count: number) {
  const stages = page.getByTestId('viewer-stage');
  await expect(stages).toHaveCount(count, { timeout: 30_000 });
  for (let index = 0; index < count; index += 1) {
    await expect(stages.nth(index)).toHaveAttribute('data-first-image-ms', /^\d+$/, { timeout: 30_000 });
  }
}

test('a CT is read beside the patient’s earlier CT; the earlier one has no prior to compare with', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const patient = await (await browser.newContext({ viewport: { width: 1366, height: 768 } })).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const account = await createPatientAccount(patient);
  const { token: patientToken, user } = await signInByApi(patient, account.email, account.password);
  const { token } = await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(doctor, token, account);
  // The current study is stored first: the prior is the earlier study date, not the earlier upload.
  const current = await phantomStudy('20260101');
  const prior = await phantomStudy('20250312');
  await storeStudyByApi(doctor, token, current.files, { patientUid: user.uid });
  await storeStudyByApi(doctor, token, prior.files, { patientUid: user.uid });
  const listed = await patient.request.get(`/api/user/${user.uid}/images`, {
    headers: { authorization: `Bearer ${patientToken}` },
  });
  const { images } = (await listed.json()) as {
    images: { uid: string; study: { study_instance_uid: string } }[];
  };
  const itemOf = (studyUid: string) =>
    images.find((image) => image.study.study_instance_uid === studyUid)!.uid;

  await patient.goto(`/imageview?image=${itemOf(current.studyUid)}&reading=1`);
  await waitForImages(patient, 1);
  const compare = patient.getByRole('button', { name: 'Compare with prior' });
  await expect(compare).toHaveAttribute('aria-pressed', 'false');
  await compare.click();
  await expect(compare).toHaveAttribute('aria-pressed', 'true');

  // Current on the left, prior on the right, each named with its date, each drawn.
  await waitForImages(patient, 2);
  const stages = patient.getByTestId('viewer-stage');
  await expect(stages.nth(0).getByTestId('overlay-study')).toHaveText('Current · Jan 1, 2026');
  await expect(stages.nth(1).getByTestId('overlay-study')).toHaveText('Prior · Mar 12, 2025');
  await expect(stages.nth(1).getByTestId('overlay-slice')).toHaveText(`Im ${SLICES / 2 + 1} / ${SLICES}`);
  // Two frames of reference: not linked until the reader links them; then the window follows, the
  // position does not.
  const link = patient.getByRole('button', { name: 'Link viewports' });
  await expect(link).toHaveAttribute('aria-pressed', 'false');
  await link.click();
  await expect(link).toHaveAttribute('aria-pressed', 'true');
  const box = (await stages.nth(0).boundingBox())!;
  const centre: [number, number] = [box.x + box.width / 2, box.y + box.height / 2];
  await drag(patient, [centre[0] - 60, centre[1] - 60], [centre[0] + 40, centre[1]]);
  const leftWindow = stages.nth(0).getByTestId('overlay-window');
  await expect(leftWindow).not.toHaveText('W 400 L 40');
  await expect(stages.nth(1).getByTestId('overlay-window')).toHaveText((await leftWindow.textContent())!);
  await patient.mouse.move(...centre);
  await patient.mouse.wheel(0, 120);
  await expect(stages.nth(0).getByTestId('overlay-slice')).toHaveText(`Im ${SLICES / 2 + 2} / ${SLICES}`);
  // Give a stray synchronisation the time to show.
  await patient.waitForTimeout(500);
  await expect(stages.nth(1).getByTestId('overlay-slice')).toHaveText(`Im ${SLICES / 2 + 1} / ${SLICES}`);

  // The prior's own series in the strip once its viewport is active.
  await stages.nth(1).click();
  await expect(patient.getByRole('navigation', { name: 'Series' })).toContainText('Prior · Mar 12, 2025');

  // Back to the study's own hanging.
  await compare.click();
  await waitForImages(patient, 1);
  await expect(patient.getByTestId('overlay-study')).toHaveCount(0);

  // The earlier study has nothing before it: once the patient's list is read, no toggle.
  const listRead = patient.waitForResponse((response) =>
    response.url().includes(`/api/user/${user.uid}/images`),
  );
  await patient.goto(`/imageview?image=${itemOf(prior.studyUid)}&reading=1`);
  await listRead;
  await waitForImages(patient, 1);
  await expect(patient.getByTestId('reading-room')).toBeVisible();
  await expect(patient.getByRole('button', { name: 'Compare with prior' })).toHaveCount(0);
});
