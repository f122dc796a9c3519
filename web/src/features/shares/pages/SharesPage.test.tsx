import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { meSchema, shareListPageSchema } from '@ra/shared';
import { answers, stubFetchByPath } from '../../../test/dicomweb';
import { renderPage } from '../../../test/render-page';
import { SharesPage } from './SharesPage';

const PATIENT = meSchema.parse({
  uid: '0b6f2f7e-2222-4a2b-8c3d-000000000003',
  email: 'paula@example.com',
  displayName: 'Paula Patient',
  role: 'Patient',
  email_verified: true,
  mfa_enabled: false,
});
const SHARE = '0b6f2f7e-2222-4a2b-8c3d-000000000009';

function page(isRevoked = false) {
  return answers.json(
    200,
    shareListPageSchema.parse({
      shares: [
        {
          uid: SHARE,
          expires_at: '2026-12-04T10:00:00.000Z',
          allow_download: false,
          has_access_code: true,
          created_at: '2026-11-27T10:00:00.000Z',
          last_opened_at: '2026-11-28T09:00:00.000Z',
          open_count: 3,
          item_uid: '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01',
          item: {
            kind: 'study',
            study: {
              study_instance_uid: '1.2.3',
              study_date: '2026-03-04',
              study_description: 'Head',
              modalities: ['CT'],
              series_count: 1,
              instance_count: 3,
              patient_name_in_file: 'PATIENT^PAULA',
              patient_birth_date_in_file: '1990-07-04',
            },
            createdAt: '2026-03-05T10:00:00.000Z',
            physician_note: null,
          },
          is_active: !isRevoked,
          revoked_at: isRevoked ? '2026-11-28T10:00:00.000Z' : null,
          note: 'For my cardiologist',
        },
      ],
      next_cursor: null,
    }),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderShares() {
  renderPage(<SharesPage />, { path: '/shares', auth: { user: PATIENT } });
}

describe('SharesPage', () => {
  it('lists the links and revokes one once confirmed', async () => {
    const server = stubFetchByPath({
      '/api/user/shares': [() => page(), () => page(true)],
      [`/api/shares/${SHARE}`]: () => new Response(null, { status: 204 }),
    });
    vi.stubGlobal('fetch', server.fetchStub);
    const user = userEvent.setup();
    renderShares();

    const row = await screen.findByTestId('share-row');
    expect(row).toHaveTextContent('CT Head');
    expect(row).toHaveTextContent('For my cardiologist');
    expect(row).toHaveTextContent('Yes');
    expect(within(row).getByRole('cell', { name: '3' })).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Revoke' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke this link?' });
    expect(server.callsTo(`/api/shares/${SHARE}`)).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Revoke link' }));

    expect(await screen.findByText('The link was revoked.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('share-row')).toHaveTextContent('Revoked'));
    expect(server.callsTo(`/api/shares/${SHARE}`)).toHaveLength(1);
    expect(within(screen.getByTestId('share-row')).queryByRole('button', { name: 'Revoke' })).toBeNull();
  });

  it('says when there are no links', async () => {
    const empty = answers.json(200, shareListPageSchema.parse({ shares: [], next_cursor: null }));
    vi.stubGlobal('fetch', stubFetchByPath({ '/api/user/shares': () => empty }).fetchStub);
    renderShares();
    expect(await screen.findByText(/You have not shared any links yet/)).toBeInTheDocument();
  });

  it('offers to try again when the list cannot be loaded', async () => {
    vi.stubGlobal('fetch', stubFetchByPath({ '/api/user/shares': answers.serverError }).fetchStub);
    renderShares();
    expect(await screen.findByText('Your shared links could not be loaded.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
