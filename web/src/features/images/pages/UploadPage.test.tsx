import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  meSchema,
  patientMismatchSchema,
  patientPageSchema,
  radiologistListSchema,
  STUDY_MESSAGES,
  uploadStudyResponseSchema,
  validationErrorSchema,
} from '@ra/shared';
import { fileKey, finishedUploadsIn } from '../../../lib/uploads/finished-uploads';
import { dicomFile, dicomFileNaming, fileStartingWith, SIGNATURES } from '../../../test/files';
import { renderPage, stubFetch } from '../../../test/render-page';
import { UploadPage } from './UploadPage';

const ME = meSchema.parse({
  uid: '4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b11',
  email: 'doctor@example.com',
  displayName: 'Dr. Ada Lane',
  role: 'Physician',
  email_verified: true,
  mfa_enabled: false,
});

const PATIENT_UID = '0b6f2f7e-2222-4a2b-8c3d-000000000003';
const PATIENTS = patientPageSchema.parse({
  patients: [
    {
      uid: PATIENT_UID,
      first_name: 'Paula',
      last_name: 'Patient',
      email: 'paula@example.com',
      dob: '1990-03-04',
      profile_image_url: null,
      image_count: 0,
      images: [],
    },
  ],
  next_cursor: null,
});
const RADIOLOGISTS = radiologistListSchema.parse({ radiologists: [] });
const MISMATCH = patientMismatchSchema.parse({
  success: false,
  msg: STUDY_MESSAGES.patientMismatch,
  found: [
    { name: 'SMITH^JOHN', birth_date: '1971-02-03', files: 2 },
    { name: 'PATIENT^PAULA', birth_date: '1990-03-04', files: 1 },
  ],
});
const FILED = uploadStudyResponseSchema.parse({
  success: true,
  items: [
    {
      uid: '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b99',
      study_instance_uid: '1.2.840.113619.2.55.3',
      instances: 2,
      skipped: [{ name: 'CD/IM2', reason: STUDY_MESSAGES.duplicate }],
    },
  ],
  skipped: [],
});

/** Three DICOM files on a "CD" with its index and autorun file, as a folder input gives them. */
function cdFiles() {
  return [
    dicomFile('IM0', 2 * 1024 * 1024),
    dicomFile('IM1', 2 * 1024 * 1024),
    dicomFile('IM2', 1024 * 1024),
    dicomFile('DICOMDIR'),
    fileStartingWith('autorun.inf', SIGNATURES.autorun),
  ];
}

/** The uploads of `files` as finished before a reload: the page must not send them again. */
function rememberUploads(files: File[]) {
  const finished = finishedUploadsIn(sessionStorage, ME.uid);
  return files.map((file, index) => {
    const url = `/api/uploads/${index}0000000000000000000000000000000`;
    finished.set(fileKey(file, file.name), url);
    return url;
  });
}

function renderUpload(...responses: [number, unknown][]) {
  const { fetchStub, calls } = stubFetch([200, PATIENTS], [200, RADIOLOGISTS], ...responses);
  vi.stubGlobal('fetch', fetchStub);
  renderPage(<UploadPage />, { path: '/upload', auth: { user: ME } });
  return { calls, user: userEvent.setup() };
}

async function chooseDicom(user: ReturnType<typeof userEvent.setup>) {
  const files = cdFiles();
  const urls = rememberUploads(files.slice(0, 3));
  await user.selectOptions(
    await screen.findByRole('combobox', { name: 'Patient' }),
    await screen.findByRole('option', { name: 'Paula Patient (paula@example.com)' }),
  );
  await user.upload(screen.getByLabelText('Image'), files);
  expect(await screen.findByText('3 DICOM files, 5.0 MB')).toBeInTheDocument();
  await user.type(screen.getByLabelText('Notes'), 'CT from the other hospital.');
  return urls;
}

beforeEach(() => {
  sessionStorage.clear();
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => undefined;
});

afterEach(() => {
  sessionStorage.clear();
});

describe('UploadPage with DICOM', () => {
  it('sums up the DICOM files, lists the skipped ones, and offers a folder', async () => {
    const { user } = renderUpload();
    await chooseDicom(user);
    expect(screen.getByText('2 files that are not DICOM were skipped')).toBeInTheDocument();
    expect(screen.getByText('DICOMDIR', { exact: false }).closest('li')).toHaveTextContent(
      'DICOMDIR: The CD’s index, not an image.',
    );
    expect(screen.getByText('autorun.inf', { exact: false }).closest('li')).toHaveTextContent(
      `autorun.inf: ${STUDY_MESSAGES.notDicom}`,
    );
    expect(screen.getByRole('button', { name: 'Choose a folder' })).toBeEnabled();
    expect(screen.getByLabelText('Choose a folder')).toHaveAttribute('webkitdirectory');
    expect(screen.getByRole('button', { name: 'Complete Upload' })).toBeEnabled();
  });

  it('skips a picture chosen beside DICOM files, and keeps a single image in the image flow', async () => {
    const { user } = renderUpload();
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Patient' }),
      await screen.findByRole('option', { name: 'Paula Patient (paula@example.com)' }),
    );
    const png = fileStartingWith('chest.png', SIGNATURES.png, 4096, 'image/png');
    await user.upload(screen.getByLabelText('Image'), [png, dicomFile('IM0')]);
    expect(await screen.findByText(/^1 DICOM file,/)).toBeInTheDocument();
    expect(screen.getByText('1 file that is not DICOM was skipped')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: 'Preview of the chosen image' })).not.toBeInTheDocument();

    await user.upload(screen.getByLabelText('Image'), png);
    expect(await screen.findByRole('img', { name: 'Preview of the chosen image' })).toBeInTheDocument();
    expect(screen.queryByText(/DICOM files,/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Complete Upload' })).toBeEnabled();
  });

  it('shows the wrong-patient guard on 409, and files with the confirmation only when asked', async () => {
    const { calls, user } = renderUpload([409, MISMATCH], [201, FILED], [200, PATIENTS]);
    const urls = await chooseDicom(user);
    await user.click(screen.getByRole('button', { name: 'Complete Upload' }));

    const heading = await screen.findByRole('heading', { name: 'These files name more than one patient' });
    await waitFor(() => expect(heading).toHaveFocus());
    const guard = within(screen.getByRole('alert'));
    expect(guard.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'JOHN SMITH, born February 3, 1971 (2 files)',
      'PAULA PATIENT, born March 4, 1990 (1 file)',
    ]);
    expect(guard.getByRole('list', { name: 'In the files:' })).toBeInTheDocument();
    expect(guard.getByText('Chosen patient:').parentElement).toHaveTextContent(
      'Chosen patient: Paula Patient, born March 4, 1990',
    );
    // Nothing was sent again: the three uploads finished before the page was loaded.
    expect(screen.getByText('3 files already uploaded before will not be sent again.')).toBeInTheDocument();
    const body = {
      patient: PATIENT_UID,
      notes: 'CT from the other hospital.',
      recommendation: null,
      uploads: urls,
    };
    expect(calls.slice(2)).toEqual([{ url: '/api/user/upload-study', body }]);
    expect(screen.getByLabelText('Patient')).toBeDisabled();

    await user.click(guard.getByRole('button', { name: 'File under Paula Patient anyway' }));
    const filed = await screen.findByText(
      'Filed 1 study with 2 instances. 1 file was already in the archive.',
    );
    expect(calls[3]).toEqual({
      url: '/api/user/upload-study',
      body: { ...body, confirm_patient_mismatch: true },
    });
    const summary = filed.closest('.alert');
    expect(summary).toHaveTextContent('1 file was not filed');
    expect(summary).toHaveTextContent(`CD/IM2: ${STUDY_MESSAGES.duplicate}`);
    expect(screen.queryByRole('heading', { name: /^These files name/ })).not.toBeInTheDocument();
    // The uploads are claimed: they are forgotten, and the form is ready for the next study.
    expect(sessionStorage.length).toBe(0);
    expect(screen.getByLabelText('Notes')).toHaveValue('');
    expect(screen.queryByText('3 DICOM files, 5.0 MB')).not.toBeInTheDocument();
  });

  it('files nothing when the guard is canceled, and keeps the uploads for the right patient', async () => {
    const { calls, user } = renderUpload([409, MISMATCH]);
    await chooseDicom(user);
    await user.click(screen.getByRole('button', { name: 'Complete Upload' }));
    const guard = within(await screen.findByRole('alert'));
    await user.click(guard.getByRole('button', { name: 'Cancel' }));

    expect(screen.getByText(/^Nothing was filed\./)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /anyway$/ })).not.toBeInTheDocument();
    expect(calls).toHaveLength(3);
    expect(sessionStorage.length).toBe(3);
    expect(screen.getByLabelText('Patient')).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Complete Upload' })).toBeEnabled();
  });

  it('reads the patients the chosen files name, and shows them all before sending a byte', async () => {
    const { calls, user } = renderUpload([201, FILED], [200, PATIENTS]);
    const files = [
      dicomFileNaming('IM0', { name: 'Patient^Paula', birthDate: '19900304' }),
      dicomFileNaming('IM1', { name: 'Smith^John', birthDate: '19710203' }),
      dicomFileNaming('IM2', { name: 'Smith^John', birthDate: '19710203' }),
      dicomFileNaming('IM3', { name: 'Müller^Anna', birthDate: '' }),
    ];
    const urls = rememberUploads(files);
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Patient' }),
      await screen.findByRole('option', { name: 'Paula Patient (paula@example.com)' }),
    );
    await user.upload(screen.getByLabelText('Image'), files);
    await user.click(await screen.findByRole('button', { name: 'Complete Upload' }));

    const heading = await screen.findByRole('heading', { name: 'These files name more than one patient' });
    await waitFor(() => expect(heading).toHaveFocus());
    const guard = within(screen.getByRole('alert'));
    expect(guard.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'John Smith, born February 3, 1971 (2 files)',
      'Paula Patient, born March 4, 1990 (1 file)',
      'Anna Müller, no birth date given (1 file)',
    ]);
    expect(guard.getByText(/Nothing has been sent yet\./)).toBeInTheDocument();
    // Only the patient and radiologist lists were asked for: no upload, no filing.
    expect(calls).toHaveLength(2);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();

    await user.click(guard.getByRole('button', { name: 'Upload and file under Paula Patient anyway' }));
    expect(await screen.findByText(/^Filed 1 study with 2 instances\./)).toBeInTheDocument();
    expect(calls[2]).toEqual({
      url: '/api/user/upload-study',
      body: {
        patient: PATIENT_UID,
        notes: '',
        recommendation: null,
        uploads: urls,
        confirm_patient_mismatch: true,
      },
    });
  });

  it('sends nothing when the guard shown before the upload is canceled', async () => {
    const { calls, user } = renderUpload();
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Patient' }),
      await screen.findByRole('option', { name: 'Paula Patient (paula@example.com)' }),
    );
    await user.upload(screen.getByLabelText('Image'), [
      dicomFileNaming('IM0', { name: 'Smith^John', birthDate: '19710203' }),
    ]);
    await user.click(await screen.findByRole('button', { name: 'Complete Upload' }));
    const guard = within(await screen.findByRole('alert'));
    expect(guard.getByRole('heading', { name: 'These files name a different patient' })).toBeInTheDocument();
    await user.click(guard.getByRole('button', { name: 'Cancel' }));

    expect(screen.getByText(/^Nothing was sent\./)).toBeInTheDocument();
    expect(calls).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Complete Upload' })).toBeEnabled();
  });

  it('uploads at once when every file names the chosen patient', async () => {
    const { calls, user } = renderUpload([201, FILED], [200, PATIENTS]);
    const files = [
      dicomFileNaming('IM0', { name: 'PATIENT^PAULA', birthDate: '19900304' }),
      dicomFileNaming('IM1', { name: 'Patient^Paula^M', birthDate: '19900304' }),
    ];
    const urls = rememberUploads(files);
    await user.selectOptions(
      await screen.findByRole('combobox', { name: 'Patient' }),
      await screen.findByRole('option', { name: 'Paula Patient (paula@example.com)' }),
    );
    await user.upload(screen.getByLabelText('Image'), files);
    await user.click(await screen.findByRole('button', { name: 'Complete Upload' }));
    expect(await screen.findByText(/^Filed 1 study/)).toBeInTheDocument();
    expect(calls[2]).toEqual({
      url: '/api/user/upload-study',
      body: { patient: PATIENT_UID, notes: '', recommendation: null, uploads: urls },
    });
  });

  it('folds a long list of skipped files in the success summary', async () => {
    const skipped = Array.from({ length: 8 }, (_, index) => ({
      name: `CD/VIEWER/file${index}.dll`,
      reason: STUDY_MESSAGES.notDicom,
    }));
    const { user } = renderUpload(
      [
        201,
        uploadStudyResponseSchema.parse({
          ...FILED,
          items: [{ ...FILED.items[0], instances: 3, skipped: [] }],
          skipped,
        }),
      ],
      [200, PATIENTS],
    );
    await chooseDicom(user);
    await user.click(screen.getByRole('button', { name: 'Complete Upload' }));
    const filed = await screen.findByText('Filed 1 study with 3 instances. 8 files were skipped.');
    const details = filed.closest('.alert')!.querySelector('details')!;
    expect(details).not.toHaveAttribute('open');
    expect(within(details).getByText('8 files were not filed')).toBeInTheDocument();
    expect(within(details).getAllByRole('listitem', { hidden: true })).toHaveLength(8);
  });

  it('counts what was stored: studies that gained instances, and the files already in the archive', async () => {
    const study = (index: number, instances: number, duplicates: number) => ({
      uid: `7c1e4a52-1111-4d43-9d55-0a4f6f0a4b9${index}`,
      study_instance_uid: `1.2.840.113619.2.55.${index}`,
      instances,
      skipped: Array.from({ length: duplicates }, (_, file) => ({
        name: `CD/ST${index}/IM${file}`,
        reason: STUDY_MESSAGES.duplicate,
      })),
    });
    const { user } = renderUpload(
      [
        201,
        uploadStudyResponseSchema.parse({
          success: true,
          // Two of the four studies were in the archive already: only their files' duplicates came back.
          items: [study(1, 1, 0), study(2, 1, 0), study(3, 0, 1), study(4, 0, 1)],
          skipped: [{ name: 'CD/AUTORUN.INF', reason: STUDY_MESSAGES.notDicom }],
        }),
      ],
      [200, PATIENTS],
    );
    await chooseDicom(user);
    await user.click(screen.getByRole('button', { name: 'Complete Upload' }));

    const filed = await screen.findByText(
      'Filed 2 studies with 2 instances. 2 files were already in the archive. 1 file was skipped.',
    );
    expect(filed.closest('.alert')).toHaveTextContent('3 files were not filed');
  });

  it('forgets the uploads when the server refuses them, so a new try sends the files again', async () => {
    const { user } = renderUpload([
      400,
      validationErrorSchema.parse({ errors: [{ msg: STUDY_MESSAGES.noDicom, path: 'uploads' }] }),
    ]);
    await chooseDicom(user);
    await user.click(screen.getByRole('button', { name: 'Complete Upload' }));
    expect(await screen.findByText(STUDY_MESSAGES.noDicom)).toBeInTheDocument();
    expect(sessionStorage.length).toBe(0);
  });
});
