import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { newUid, sampleCopy } from '../../server/test/dicom-files.js';
import { readDicomSample } from '../../server/test/dicom-samples.js';
import { addPatientByApi, createPatientAccount, DEMO_PASSWORD, signInByApi } from '../fixtures/accounts.js';
import { storeStudyByApi } from '../fixtures/dicomweb.js';

/**
 * A CD as hospitals hand it out: a DICOMDIR, an autorun file, a viewer's icon, and a CT series of
 * five slices and an MR series of three, all of one study whose files name someone else.
 */
async function writeCd(): Promise<string> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-cd-'));
  const cd = path.join(root, 'CD');
  await fs.mkdir(path.join(cd, 'DICOM', 'S1'), { recursive: true });
  await fs.mkdir(path.join(cd, 'DICOM', 'S2'), { recursive: true });
  await fs.mkdir(path.join(cd, 'VIEWER'), { recursive: true });
  await fs.writeFile(path.join(cd, 'DICOMDIR'), readDicomSample('dicomdirtests/DICOMDIR'));
  await fs.writeFile(path.join(cd, 'AUTORUN.INF'), '[autorun]\nopen=VIEWER\\viewer.exe\n');
  await fs.writeFile(
    path.join(cd, 'VIEWER', 'logo.png'),
    Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  );
  const study = { studyUid: newUid(), patientName: 'Smith^John', birthDate: '19650101' };
  const ct = { ...study, seriesUid: newUid(), seriesNumber: 1 };
  const mr = { ...study, seriesUid: newUid(), seriesNumber: 2 };
  for (let slice = 1; slice <= 5; slice += 1) {
    const file = await sampleCopy('CT_small.dcm', { ...ct, instanceNumber: slice });
    await fs.writeFile(path.join(cd, 'DICOM', 'S1', `IM${slice}`), file);
  }
  for (let slice = 1; slice <= 3; slice += 1) {
    const file = await sampleCopy('MR_small.dcm', { ...mr, instanceNumber: slice });
    await fs.writeFile(path.join(cd, 'DICOM', 'S2', `IM${slice}`), file);
  }
  return cd;
}

test('a physician files a CD folder after the wrong-patient warning; the patient sees the study, scrolls a series and asks for an opinion on it', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const patient = await (await browser.newContext()).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const account = await createPatientAccount(patient);
  await signInByApi(patient, account.email, account.password);
  const { token } = await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(doctor, token, account);
  const cd = await writeCd();

  await doctor.goto('/upload');
  await doctor.getByLabel('Patient').selectOption({ label: `Erin Endtoend (${account.email})` });
  await doctor.getByLabel('Choose a folder').setInputFiles(cd);
  await expect(doctor.getByText(/^8 DICOM files, /)).toBeVisible();
  await expect(doctor.getByText('3 files that are not DICOM were skipped')).toBeVisible();
  await doctor.getByLabel('Notes').fill('CT and MR of the head from the referring hospital.');
  await doctor.getByRole('button', { name: 'Complete Upload' }).click();

  // The files name John Smith: the page reads their headers and waits for a decision; nothing is sent yet.
  const warning = doctor.getByRole('alert').filter({ hasText: 'These files name a different patient' });
  await expect(warning.getByRole('listitem')).toHaveText(['John Smith, born January 1, 1965 (8 files)']);
  await expect(warning).toContainText('Chosen patient: Erin Endtoend, born');
  await expect(doctor.getByRole('heading', { name: 'These files name a different patient' })).toBeFocused();
  await warning.getByRole('button', { name: 'Upload and file under Erin Endtoend anyway' }).click();
  // Eight files go up before the filing: on a busy machine that takes longer than a click's answer.
  await expect(doctor.getByText('Filed 1 study with 8 instances.')).toBeVisible({ timeout: 30_000 });

  // The patient's library lists the study with its modalities, and its preview once drawn.
  await patient.goto('/imagelibrary');
  const row = patient.getByRole('row').filter({ hasText: 'Study' });
  await expect(row).toContainText('CT, MR');
  await expect(row).toContainText('2 series · 8 instances');
  await expect
    .poll(
      async () => {
        await patient.reload();
        const thumbnail = patient.getByRole('row').filter({ hasText: 'Study' }).getByRole('img');
        return (
          (await thumbnail.count()) > 0 && thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)
        );
      },
      { timeout: 45_000 },
    )
    .toBe(128);

  // The MR's frames will fail to arrive for a while (below). The series list names the MR series
  // before any frame is asked for; failing its frames from the start keeps the study's first,
  // side-by-side opening from having them decoded and cached already.
  let mrSeries: string | undefined;
  let isFailingMrFrames = true;
  await patient.route('**/dicomweb/studies/*/series', async (route) => {
    const response = await route.fetch();
    const datasets = (await response.json()) as Record<string, { Value?: string[] }>[];
    mrSeries = datasets.find((dataset) => dataset['00080060']?.Value?.[0] === 'MR')?.['0020000E']?.Value?.[0];
    await route.fulfill({ response });
  });
  await patient.route('**/frames/**', (route) =>
    isFailingMrFrames && mrSeries && route.request().url().includes(`/series/${mrSeries}/`)
      ? route.fulfill({ status: 503, body: '' })
      : route.fallback(),
  );
  // The patient opens the study: its series with their thumbnails, then the CT series in the viewer.
  await patient.getByRole('row').filter({ hasText: 'Study' }).getByText('View', { exact: true }).click();
  await expect(patient.getByText('Patient’s name in the files')).toBeVisible();
  const ctSeries = patient.getByRole('button', { name: /CT · Series 1/ });
  await expect(ctSeries).toContainText('5 images');
  await expect(patient.getByRole('button', { name: /MR · Series 2/ })).toContainText('3 images');
  // A CT and an MR hang side by side (a hanging protocol); one viewport reads one series first.
  await expect(patient.getByRole('button', { name: 'Two viewports (1 × 2)' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await patient.getByRole('button', { name: 'One viewport (1 × 1)' }).click();
  await ctSeries.click();
  await expect(ctSeries).toHaveAttribute('aria-current', 'true');
  // The series opens in the viewer at its middle slice; the keys move through it.
  const stage = patient.getByTestId('viewer-stage');
  await expect(stage).toHaveAttribute('data-first-image-ms', /^\d+$/);
  await expect(patient.getByTestId('overlay-slice')).toHaveText('Im 3 / 5');
  await stage.focus();
  await patient.keyboard.press('End');
  await expect(patient.getByTestId('overlay-slice')).toHaveText('Im 5 / 5');

  // When the server fails to send a frame, the viewer says which image, and Retry asks again.
  await patient.getByRole('button', { name: /MR · Series 2/ }).click();
  const failure = patient
    .getByRole('alert')
    .filter({ hasText: 'Image 2 could not be fetched from the archive.' });
  await expect(failure).toBeVisible({ timeout: 30_000 });
  isFailingMrFrames = false;
  await failure.getByRole('button', { name: 'Retry' }).click();
  await expect(patient.getByTestId('overlay-slice')).toHaveText('Im 2 / 3');
  await expect(failure).toBeHidden();

  // Two viewports compare the series, with one toolbar for the active one; keys move the focused one.
  await patient.getByRole('button', { name: 'Two viewports (1 × 2)' }).click();
  const stages = patient.getByTestId('viewer-stage');
  const slices = patient.getByTestId('overlay-slice');
  await expect(stages).toHaveCount(2);
  await expect(slices.nth(0)).toHaveText('Im 2 / 3');
  await expect(slices.nth(1)).toHaveText('Im 3 / 5');
  await expect(patient.getByRole('toolbar', { name: 'Viewer tools' })).toHaveCount(1);
  await stages.nth(1).focus();
  await patient.keyboard.press('Home');
  await expect(slices.nth(1)).toHaveText('Im 1 / 5');
  await expect(slices.nth(0)).toHaveText('Im 2 / 3');
  await expect(ctSeries).toHaveAttribute('aria-current', 'true');
  // The CT's images, decoded by the first viewer, count as loaded in the second.
  await expect(patient.getByTestId('viewer-progress')).toHaveCount(0);

  // The patient asks a radiologist to read the study.
  await patient.goto('/secondopinion');
  await patient.getByLabel('Radiologist').selectOption({ label: 'Dr. Laura Davis — Musculoskeletal' });
  await patient.getByRole('button', { name: 'Go to Image Selection' }).click();
  const modal = patient.getByRole('dialog', { name: 'Select image for a second opinion' });
  await expect(modal).toContainText('CT, MR');
  await modal.getByRole('radio').first().click();
  await modal.getByRole('button', { name: 'Confirm for Payment' }).click();
  await expect(patient).toHaveURL(/\/invoices$/);
  await expect(patient.getByTestId('invoice-row').first()).toContainText('Dr. Laura Davis');
});

test('a study sent by STOW-RS without a patient waits in Incoming until the physician files it under one', async ({
  browser,
}) => {
  const patient = await (await browser.newContext()).newPage();
  const doctor = await (await browser.newContext()).newPage();
  const account = await createPatientAccount(patient);
  const { token } = await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(doctor, token, account);

  // A PACS stores a study naming someone else, without a patient: it lands in Incoming.
  const study = { studyUid: newUid(), patientName: 'Smith^John', birthDate: '19650101' };
  const parts = [await sampleCopy('CT_small.dcm', study), await sampleCopy('MR_small.dcm', study)];
  await storeStudyByApi(doctor, token, parts, { userAgent: 'Hospital PACS' });

  await doctor.goto('/dashboard');
  await doctor.getByRole('link', { name: 'Incoming Studies' }).click();
  await expect(doctor.getByRole('heading', { name: 'Incoming Studies', level: 1 })).toBeVisible();
  const row = doctor
    .getByRole('row')
    .filter({ hasText: study.studyUid.slice(-6) })
    .or(doctor.getByRole('row').filter({ hasText: 'Hospital PACS' }));
  await expect(row.first()).toContainText('John Smith');
  await expect(row.first()).toContainText('CT, MR');
  const select = row.first().getByRole('combobox');
  await select.selectOption({ label: `Erin Endtoend (${account.email})` });
  await row.first().getByRole('button', { name: 'Assign' }).click();
  await expect(doctor.getByRole('heading', { name: 'These files name a different patient' })).toBeFocused();
  await doctor.getByRole('button', { name: 'File under Erin Endtoend anyway' }).click();
  await expect(doctor.getByText('Filed under Erin Endtoend.')).toBeVisible();
  await doctor.getByRole('link', { name: 'View the study' }).click();
  await expect(doctor.getByRole('button', { name: /CT · Series/ })).toBeVisible();
});
