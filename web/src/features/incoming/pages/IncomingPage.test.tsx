import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  assignIncomingResponseSchema,
  incomingListSchema,
  meSchema,
  patientMismatchSchema,
  patientPageSchema,
  STUDY_MESSAGES,
} from '@ra/shared';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { ToastProvider } from '../../../components/toasts/ToastProvider';
import { AuthContext, type AuthState } from '../../../app/auth/auth-context';
import { formatDateTime } from '../../../lib/dates';
import { renderPage } from '../../../test/render-page';
import { IncomingPage } from './IncomingPage';

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

const signedOut: AuthState = {
  user: null,
  signIn: () => Promise.reject(new Error('signIn not expected')),
  completeSignIn: () => Promise.reject(new Error('completeSignIn not expected')),
  signOut: () => Promise.resolve(),
  reloadUser: () => Promise.resolve(false),
};

const CT_UID = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01';
const MR_UID = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b02';
const ITEM_UID = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b99';

function study(description: string, uid: string) {
  return {
    study_instance_uid: uid,
    study_date: '2026-11-20',
    study_description: description,
    modalities: ['CT'],
    series_count: 2,
    instance_count: 40,
    patient_name_in_file: 'Smith^John',
    patient_birth_date_in_file: '1971-02-03',
  };
}

const CT = {
  uid: CT_UID,
  study: study('CT Chest', '1.2.840.1'),
  received_at: '2026-11-23T10:04:05.000Z',
  source: 'Orthanc PACS',
};
const MR = {
  uid: MR_UID,
  study: { ...study('', '1.2.840.2'), modalities: ['MR'], patient_birth_date_in_file: null },
  received_at: '2026-11-22T08:00:00.000Z',
  source: 'dicomweb-client',
};

const BOTH = incomingListSchema.parse({ studies: [CT, MR] });
const ONLY_MR = incomingListSchema.parse({ studies: [MR] });
const NONE = incomingListSchema.parse({ studies: [] });
const FILED = assignIncomingResponseSchema.parse({ success: true, item_uid: ITEM_UID });
const MISMATCH = patientMismatchSchema.parse({
  success: false,
  msg: STUDY_MESSAGES.patientMismatch,
  found: [
    { name: 'SMITH^JOHN', birth_date: '1971-02-03', files: 40 },
    { name: 'SMITH^JON', birth_date: null, files: 2 },
  ],
});

const LIST_URL = 'GET /api/user/incoming';
const PATIENTS_URL = 'GET /api/user/patients?limit=200';
const ASSIGN_CT_URL = `POST /api/user/incoming/${CT_UID}/assign`;

type Answers = Record<string, [number, unknown][]>;

/** A fetch stub answering each method and address with its next answer, and recording every call. */
function renderIncoming(answers: Answers, user = ME) {
  const calls: { key: string; body: unknown }[] = [];
  const queues: Answers = structuredClone(answers);
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${input}`;
    calls.push({
      key,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    });
    const next = queues[key]?.shift();
    if (!next) {
      return Promise.reject(new Error(`unexpected fetch ${key}`));
    }
    const [status, body] = next;
    return Promise.resolve(new Response(JSON.stringify(body), { status }));
  });
  renderPage(<IncomingPage />, { path: '/incoming', auth: { user } });
  return { calls, user: userEvent.setup() };
}

function bodyRows(): HTMLElement[] {
  const table = screen.getByRole('table', { name: 'Studies waiting to be filed, newest first' });
  const [, body] = within(table).getAllByRole('rowgroup');
  return within(body!).getAllByRole('row');
}

async function choosePaula(user: ReturnType<typeof userEvent.setup>) {
  const select = await screen.findByRole('combobox', { name: 'Patient for CT Chest' });
  await user.selectOptions(
    select,
    await within(select).findByRole('option', { name: 'Paula Patient (paula@example.com)' }),
  );
}

describe('IncomingPage', () => {
  it('lists the waiting studies with when, from whom, the study and who the files name', async () => {
    renderIncoming({ [LIST_URL]: [[200, BOTH]], [PATIENTS_URL]: [[200, PATIENTS]] });
    expect(await screen.findByRole('heading', { name: 'Incoming Studies' })).toBeInTheDocument();
    await screen.findByText('CT Chest');
    for (const name of ['Received', 'From', 'Study', 'In the files', 'Assign']) {
      expect(screen.getByRole('columnheader', { name })).toBeInTheDocument();
    }
    const [ct, mr] = bodyRows();
    const ctCells = within(ct!).getAllByRole('cell');
    expect(ctCells[0]).toHaveTextContent(formatDateTime(CT.received_at));
    expect(ctCells[1]).toHaveTextContent('Orthanc PACS');
    expect(ctCells[2]).toHaveTextContent('CT Chest');
    expect(ctCells[3]).toHaveTextContent('John SmithBorn February 3, 1971');
    const mrCells = within(mr!).getAllByRole('cell');
    expect(mrCells[1]).toHaveTextContent('dicomweb-client');
    expect(mrCells[3]).toHaveTextContent('John SmithNo birth date given');
    // A study without a description is named by its Study Instance UID.
    expect(within(mr!).getByRole('combobox', { name: 'Patient for 1.2.840.2' })).toBeInTheDocument();
    expect(within(ct!).getByRole('button', { name: 'Assign' })).toBeDisabled();
    expect(
      await within(ct!).findByRole('option', { name: 'Paula Patient (paula@example.com)' }),
    ).toBeInTheDocument();
  });

  it('files a study under the chosen patient, removes its row and links to it', async () => {
    const { calls, user } = renderIncoming({
      [LIST_URL]: [
        [200, BOTH],
        [200, ONLY_MR],
      ],
      [PATIENTS_URL]: [
        [200, PATIENTS],
        [200, PATIENTS],
      ],
      [ASSIGN_CT_URL]: [[200, FILED]],
    });
    await choosePaula(user);
    const ct = bodyRows()[0]!;
    await user.click(within(ct).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText(/Filed under Paula Patient\./)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View the study' })).toHaveAttribute(
      'href',
      `/imageview?image=${ITEM_UID}`,
    );
    await waitFor(() => expect(screen.queryByText('CT Chest')).not.toBeInTheDocument());
    expect(bodyRows()).toHaveLength(1);
    expect(calls.filter((call) => call.key === ASSIGN_CT_URL).map((call) => call.body)).toEqual([
      { patient: PATIENT_UID, confirm_patient_mismatch: false },
    ]);
  });

  it('asks before filing a study whose files name someone else, and resends with the confirmation', async () => {
    const { calls, user } = renderIncoming({
      [LIST_URL]: [
        [200, BOTH],
        [200, ONLY_MR],
      ],
      [PATIENTS_URL]: [
        [200, PATIENTS],
        [200, PATIENTS],
      ],
      [ASSIGN_CT_URL]: [
        [409, MISMATCH],
        [409, MISMATCH],
        [200, FILED],
      ],
    });
    await choosePaula(user);
    await user.click(within(bodyRows()[0]!).getByRole('button', { name: 'Assign' }));
    expect(
      await screen.findByRole('heading', { name: 'These files name more than one patient' }),
    ).toHaveFocus();
    // Every person the files name, each with how many files do, as a list.
    expect(
      within(screen.getByRole('list', { name: 'In the files:' }))
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['JOHN SMITH, born February 3, 1971 (40 files)', 'JON SMITH, no birth date given (2 files)']);
    // Cancel closes the guard without filing anything.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('heading', { name: /^These files name/ })).toBeNull();
    expect(screen.getByText('CT Chest')).toBeInTheDocument();

    await user.click(within(bodyRows()[0]!).getByRole('button', { name: 'Assign' }));
    await user.click(await screen.findByRole('button', { name: 'File under Paula Patient anyway' }));
    expect(await screen.findByText(/Filed under Paula Patient\./)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('CT Chest')).not.toBeInTheDocument());
    expect(calls.filter((call) => call.key === ASSIGN_CT_URL).map((call) => call.body)).toEqual([
      { patient: PATIENT_UID, confirm_patient_mismatch: false },
      { patient: PATIENT_UID, confirm_patient_mismatch: false },
      { patient: PATIENT_UID, confirm_patient_mismatch: true },
    ]);
  });

  it('says why a study could not be filed', async () => {
    const { user } = renderIncoming({
      [LIST_URL]: [
        [200, BOTH],
        [200, ONLY_MR],
      ],
      [PATIENTS_URL]: [[200, PATIENTS]],
      [ASSIGN_CT_URL]: [[409, { success: false, msg: STUDY_MESSAGES.alreadyFiled }]],
    });
    await choosePaula(user);
    await user.click(within(bodyRows()[0]!).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText(STUDY_MESSAGES.alreadyFiled)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: /^These files name/ })).toBeNull();
    await waitFor(() => expect(screen.queryByText('CT Chest')).not.toBeInTheDocument());
  });

  it('says so when no studies are waiting', async () => {
    renderIncoming({ [LIST_URL]: [[200, NONE]], [PATIENTS_URL]: [[200, PATIENTS]] });
    expect(await screen.findByText('No studies are waiting.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('offers to try again when the list cannot be loaded', async () => {
    const { user } = renderIncoming({
      [LIST_URL]: [
        [500, { error: 'Something went wrong.' }],
        [200, BOTH],
      ],
      [PATIENTS_URL]: [[200, PATIENTS]],
    });
    expect(await screen.findByText('The incoming studies could not be loaded.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('CT Chest')).toBeInTheDocument();
    expect(screen.queryByText('The incoming studies could not be loaded.')).not.toBeInTheDocument();
  });

  it('turns other roles away as the Upload page does, without asking the server', async () => {
    const calls: string[] = [];
    vi.stubGlobal('fetch', (input: string) => {
      calls.push(input);
      return Promise.reject(new Error(`unexpected fetch ${input}`));
    });
    const router = createMemoryRouter(
      [
        {
          element: (
            <ToastProvider>
              <Outlet />
            </ToastProvider>
          ),
          children: [
            { path: '/', element: <p>Home page</p> },
            { path: '/incoming', element: <IncomingPage /> },
          ],
        },
      ],
      { initialEntries: ['/incoming'] },
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <AuthContext.Provider value={{ ...signedOut, user: { ...ME, role: 'Patient' } }}>
          <RouterProvider router={router} />
        </AuthContext.Provider>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('Home page')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('You are not authorized to view this page.');
    expect(screen.queryByRole('heading', { name: 'Incoming Studies' })).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
