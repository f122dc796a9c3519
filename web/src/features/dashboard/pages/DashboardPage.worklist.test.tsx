import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { meSchema, worklistSchema } from '@ra/shared';
import { renderPage, stubFetch } from '../../../test/render-page';
import { formatDateTime } from '../../../lib/dates';
import { imageViewPath } from '../../../lib/paths';
import { DashboardPage } from './DashboardPage';

const RADIOLOGIST = meSchema.parse({
  uid: '4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b12',
  email: 'ray@example.com',
  displayName: 'Dr. Ray Diologist',
  role: 'Radiologist',
  email_verified: true,
  mfa_enabled: false,
});

const author = {
  uid: '4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b13',
  role: 'PHYSICIAN',
  full_name: 'Dr. Phil Doc',
  note: 'Query fracture.',
  recommendation: null,
  key_images: [],
  updatedAt: '2026-11-20T10:00:00.000Z',
};

/** Stubs the network with `answers`, in order, and returns the calls made. */
function answer(...answers: [number, unknown][]) {
  const { fetchStub, calls } = stubFetch(...answers);
  vi.stubGlobal('fetch', fetchStub);
  return calls;
}

function item(uid: string, study: boolean) {
  return {
    uid,
    kind: study ? 'study' : 'image',
    study: study
      ? {
          study_instance_uid: '1.2.3',
          study_date: '2026-11-20',
          study_description: 'CT Wrist',
          modalities: ['CT'],
          series_count: 1,
          instance_count: 2,
          patient_name_in_file: 'One^Pat',
          patient_birth_date_in_file: null,
        }
      : null,
    url: `/api/files/${uid}`,
    thumbnail_url: null,
    content_type: study ? 'image/webp' : 'image/png',
    width: 32,
    height: 32,
    createdAt: '2026-11-20T09:00:00.000Z',
    patient_uid: '0b6f2f7e-2222-4a2b-8c3d-000000000003',
    first_name: 'Pat',
    last_name: 'One',
    uploadedBy_title: 'Dr.',
    uploadedBy_first_name: 'Phil',
    uploadedBy_last_name: 'Doc',
    authors: study ? [author] : [],
  };
}

const WORKLIST = worklistSchema.parse({
  requests: [
    {
      invoice_uid: '9b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b01',
      item: item('7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01', true),
      patient: { uid: '5b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b01', full_name: 'Pat One' },
      paid_at: '2026-11-21T08:30:00.000Z',
      physician_note: 'Query fracture.',
      analysis_status: 'waiting',
    },
    {
      invoice_uid: '9b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b02',
      item: item('7c1e4a52-1111-4d43-9d55-0a4f6f0a4b02', false),
      patient: { uid: '5b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b01', full_name: 'Pat One' },
      paid_at: '2026-11-19T08:30:00.000Z',
      physician_note: null,
      analysis_status: 'done',
    },
  ],
});

afterEach(() => vi.unstubAllGlobals());

describe('DashboardPage for a radiologist', () => {
  it('shows the worklist: who, what, when paid, the physician’s question and where each stands', async () => {
    const calls = answer([200, WORKLIST]);
    renderPage(<DashboardPage />, { path: '/', auth: { user: RADIOLOGIST } });
    const table = await screen.findByRole('table', { name: 'Paid requests, waiting ones first' });
    expect(calls.map((call) => call.url)).toEqual(['/api/user/worklist']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Pat One');
    expect(rows[0]).toHaveTextContent('CT Wrist');
    expect(rows[0]).toHaveTextContent(formatDateTime('2026-11-21T08:30:00.000Z'));
    expect(rows[0]).toHaveTextContent('Query fracture.');
    expect(rows[0]).toHaveTextContent('Waiting');
    expect(within(rows[0]!).getByRole('link', { name: 'Open CT CT Wrist of Pat One' })).toHaveAttribute(
      'href',
      imageViewPath('7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01'),
    );
    expect(rows[1]).toHaveTextContent('No note from the physician');
    expect(rows[1]).toHaveTextContent('Analysis written');
    expect(screen.getByLabelText('1 waiting')).toBeInTheDocument();
  });

  it('says so when no request has been paid yet', async () => {
    answer([200, worklistSchema.parse({ requests: [] })]);
    renderPage(<DashboardPage />, { path: '/', auth: { user: RADIOLOGIST } });
    expect(
      await screen.findByText('No patient has asked for your opinion yet. Paid requests appear here.'),
    ).toBeInTheDocument();
  });

  it('offers to try again when the worklist cannot be loaded', async () => {
    answer([500, { error: 'Something went wrong.' }], [200, WORKLIST]);
    renderPage(<DashboardPage />, { path: '/', auth: { user: RADIOLOGIST } });
    const retry = await screen.findByRole('button', { name: 'Try again' });
    expect(screen.getByText('Your worklist could not be loaded.')).toBeInTheDocument();
    retry.click();
    expect(
      await screen.findByRole('table', { name: 'Paid requests, waiting ones first' }),
    ).toBeInTheDocument();
  });
});
