import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import {
  accessHistoryPageSchema,
  type AccessHistoryPage as HistoryPage,
  type ItemSummary,
  type Me,
} from '@ra/shared';
import { renderPage, stubFetch } from '../../../test/render-page';
import { formatDateTime } from '../../../lib/dates';
import { AccessHistoryPage } from './AccessHistoryPage';

const PATIENT: Me = {
  uid: '0b6f2f7e-3333-4a2b-8c3d-000000000001',
  email: 'paula@example.com',
  displayName: 'Ms. Paula Patient',
  role: 'Patient',
  email_verified: true,
  mfa_enabled: false,
};

const PHYSICIAN = {
  uid: '0b6f2f7e-3333-4a2b-8c3d-000000000002',
  role: 'PHYSICIAN',
  full_name: 'Dr. Phil Heart',
} as const;

const RADIOLOGIST = {
  uid: '0b6f2f7e-3333-4a2b-8c3d-000000000003',
  role: 'RADIOLOGIST',
  full_name: 'Dr. Rita Ray',
} as const;

const IMAGE_UID = '0b6f2f7e-3333-4a2b-8c3d-0000000000aa';
const ITEM: ItemSummary = {
  kind: 'study',
  study: {
    study_instance_uid: '1.2.3',
    study_date: '2026-11-15',
    study_description: 'Chest',
    modalities: ['CT'],
    series_count: 1,
    instance_count: 40,
    patient_name_in_file: 'Patient^Paula',
    patient_birth_date_in_file: null,
  },
  createdAt: '2026-11-16T10:00:00.000Z',
  physician_note: null,
};
const ITEM_TITLE = 'CT Chest · 11/15/26';

/** A page of the API's answer, checked against the shared schema so the stub cannot drift from the server. */
function historyPage(page: HistoryPage): [number, HistoryPage] {
  return [200, accessHistoryPageSchema.parse(page)];
}

const FIRST_PAGE = historyPage({
  entries: [
    {
      at: '2026-11-22T10:04:05.123Z',
      actor: PHYSICIAN,
      via: 'account',
      action: 'view',
      item_uid: IMAGE_UID,
      item: ITEM,
    },
    {
      at: '2026-11-21T09:00:00.000Z',
      actor: null,
      via: 'share_link',
      action: 'share_open',
      item_uid: null,
      item: null,
    },
    {
      at: '2026-11-20T08:30:00.000Z',
      actor: RADIOLOGIST,
      via: 'account',
      action: 'list',
      item_uid: null,
      item: null,
    },
  ],
  next_cursor: 'cursor/2',
});

const SECOND_PAGE = historyPage({
  entries: [
    {
      at: '2026-11-19T07:15:00.000Z',
      actor: PHYSICIAN,
      via: 'account',
      action: 'download',
      item_uid: IMAGE_UID,
      item: ITEM,
    },
    {
      at: '2026-11-18T06:00:00.000Z',
      actor: PHYSICIAN,
      via: 'account',
      action: 'profile',
      item_uid: null,
      item: null,
    },
  ],
  next_cursor: null,
});

function renderHistory(responses: [number, unknown][], user: Me = PATIENT) {
  const { fetchStub, calls } = stubFetch(...responses);
  vi.stubGlobal('fetch', fetchStub);
  renderPage(<AccessHistoryPage />, { path: '/access-history', auth: { user } });
  return { calls, user: userEvent.setup() };
}

/** Each body row's cells as text: When, Who, What. */
function bodyRows(): string[][] {
  const table = screen.getByRole('table', { name: 'Who accessed your records, by visit, newest first' });
  const [, body] = within(table).getAllByRole('rowgroup');
  return within(body!)
    .getAllByRole('row')
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}

describe('AccessHistoryPage', () => {
  it('lists who accessed the records, newest first, naming and linking the item', async () => {
    renderHistory([FIRST_PAGE]);
    expect(await screen.findByRole('columnheader', { name: 'When' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Who' })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'What' })).toBeInTheDocument();
    expect(bodyRows()).toEqual([
      [formatDateTime('2026-11-22T10:04:05.123Z'), 'Dr. Phil Heart (Physician)', `${ITEM_TITLE}: viewed`],
      [formatDateTime('2026-11-21T09:00:00.000Z'), 'Shared link', 'Opened a shared link'],
      [formatDateTime('2026-11-20T08:30:00.000Z'), 'Dr. Rita Ray (Radiologist)', 'Viewed your image list'],
    ]);
    expect(screen.getByRole('link', { name: ITEM_TITLE })).toHaveAttribute(
      'href',
      `/imageview?image=${IMAGE_UID}`,
    );
  });

  it('loads the next page with the cursor and stops offering more at the end', async () => {
    const { calls, user } = renderHistory([FIRST_PAGE, SECOND_PAGE]);
    await user.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Viewed your profile')).toBeInTheDocument();
    expect(bodyRows().map(([, who, what]) => [who, what])).toEqual([
      ['Dr. Phil Heart (Physician)', `${ITEM_TITLE}: viewed`],
      ['Shared link', 'Opened a shared link'],
      ['Dr. Rita Ray (Radiologist)', 'Viewed your image list'],
      ['Dr. Phil Heart (Physician)', `${ITEM_TITLE}: 1 file downloaded`],
      ['Dr. Phil Heart (Physician)', 'Viewed your profile'],
    ]);
    expect(screen.getAllByRole('link', { name: ITEM_TITLE })).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(calls.map((call) => call.url)).toEqual([
      '/api/user/access-history',
      '/api/user/access-history?cursor=cursor%2F2',
    ]);
  });

  it('makes one row of a visit: each item once, with what was done to it', async () => {
    const at = (minute: number) => `2026-11-22T10:${String(minute).padStart(2, '0')}:00.000Z`;
    const byPhysician = { actor: PHYSICIAN, via: 'account' as const };
    renderHistory([
      historyPage({
        entries: [
          ...[9, 8, 7].map((minute) => ({
            at: at(minute),
            ...byPhysician,
            action: 'download' as const,
            item_uid: IMAGE_UID,
            item: ITEM,
          })),
          { at: at(6), ...byPhysician, action: 'view', item_uid: IMAGE_UID, item: ITEM },
          { at: at(5), ...byPhysician, action: 'list', item_uid: null, item: null },
          { at: at(4), ...byPhysician, action: 'list', item_uid: null, item: null },
        ],
        next_cursor: null,
      }),
    ]);
    await screen.findByRole('columnheader', { name: 'When' });
    const [day, from] = formatDateTime(at(4)).split(', ');
    const to = formatDateTime(at(9)).split(', ')[1];
    expect(bodyRows()).toEqual([
      [
        `${day}, ${from} – ${to}`,
        'Dr. Phil Heart (Physician)',
        `${ITEM_TITLE}: viewed, 3 files downloadedViewed your image list`,
      ],
    ]);
  });

  it('says so when nobody else has accessed the records', async () => {
    renderHistory([historyPage({ entries: [], next_cursor: null })]);
    expect(await screen.findByText('Nobody else has accessed your records yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('offers to try again when the history cannot be loaded', async () => {
    const { user } = renderHistory([[500, { error: 'Something went wrong.' }], FIRST_PAGE]);
    expect(await screen.findByText('Your access history could not be loaded.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Dr. Phil Heart (Physician)')).toBeInTheDocument();
    expect(screen.queryByText('Your access history could not be loaded.')).not.toBeInTheDocument();
  });

  it('tells other roles the page is for patients, without asking the server', async () => {
    const { calls } = renderHistory([], { ...PATIENT, role: 'Physician' });
    expect(
      screen.getByText('Access History is for patients: it shows them who has viewed their records.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});
