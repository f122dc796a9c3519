import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { newUid, sampleCopy } from '../../server/test/dicom-files.js';
import { addPatientByApi, createPatientAccount, DEMO_PASSWORD, signInByApi } from '../fixtures/accounts.js';

/** Five CT slices of one study whose files name four different people (none of them the patient). */
async function writeFolderNamingFour(): Promise<string> {
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-four-'));
  const study = { studyUid: newUid(), seriesUid: newUid(), seriesNumber: 1 };
  const people = [
    { patientName: 'Smith^John', birthDate: '19650101' },
    { patientName: 'Smith^John', birthDate: '19650101' },
    { patientName: 'Doe^Jane', birthDate: '19700202' },
    { patientName: 'Roe^Richard', birthDate: '19800303' },
    { patientName: 'Poe^Edgar', birthDate: '' },
  ];
  for (const [index, person] of people.entries()) {
    const file = await sampleCopy('CT_small.dcm', { ...study, ...person, instanceNumber: index + 1 });
    await fs.writeFile(path.join(folder, `IM${index + 1}`), file);
  }
  return folder;
}

test('the Upload page reads whom a folder’s files name and shows all four people before sending a byte', async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const doctor = await (await browser.newContext()).newPage();
  const account = await createPatientAccount(doctor);
  const { token } = await signInByApi(doctor, 'physician@example.com', DEMO_PASSWORD);
  await addPatientByApi(doctor, token, account);
  const folder = await writeFolderNamingFour();
  const sent: string[] = [];
  doctor.on('request', (request) => {
    if (/\/api\/(uploads|user\/upload-study)/.test(request.url())) {
      sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
    }
  });

  await doctor.goto('/upload');
  await doctor.getByLabel('Patient').selectOption({ label: `Erin Endtoend (${account.email})` });
  await doctor.getByLabel('Choose a folder').setInputFiles(folder);
  await expect(doctor.getByText(/^5 DICOM files, /)).toBeVisible();
  await doctor.getByRole('button', { name: 'Complete Upload' }).click();

  // Everyone the files name, each with their count, before anything is uploaded.
  const guard = doctor.getByRole('alert').filter({ hasText: 'These files name more than one patient' });
  await expect(doctor.getByRole('heading', { name: 'These files name more than one patient' })).toBeFocused();
  // The one named most first; the others in the order the folder gave them.
  const people = guard.getByRole('list', { name: 'In the files:' }).getByRole('listitem');
  await expect(people).toHaveCount(4);
  await expect(people.first()).toHaveText('John Smith, born January 1, 1965 (2 files)');
  expect((await people.allTextContents()).sort()).toEqual([
    'Edgar Poe, no birth date given (1 file)',
    'Jane Doe, born February 2, 1970 (1 file)',
    'John Smith, born January 1, 1965 (2 files)',
    'Richard Roe, born March 3, 1980 (1 file)',
  ]);
  await expect(guard).toContainText('Chosen patient: Erin Endtoend, born June 15, 1991');
  await expect(guard).toContainText('Nothing has been sent yet.');
  expect(sent).toEqual([]);

  // Confirmed, the files go, and are filed with the confirmation (the server checks them again).
  await guard.getByRole('button', { name: 'Upload and file under Erin Endtoend anyway' }).click();
  await expect(doctor.getByText(/^Filed 1 study with 5 instances\./)).toBeVisible({ timeout: 30_000 });
  expect(sent).toContain('POST /api/uploads');
  expect(sent).toContain('POST /api/user/upload-study');
});
