import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createdShareSchema, createShareBodySchema } from '@ra/shared';
import { answers, stubFetchByPath } from '../test/dicomweb';
import { renderPage } from '../test/render-page';
import { ShareButton } from './ShareDialog';

const ITEM = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01';
const SHARES_PATH = `/api/image/${ITEM}/shares`;
const URL_OF_LINK = 'https://archive.example.org/s/abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';

function created(hasCode: boolean) {
  return answers.json(
    201,
    createdShareSchema.parse({
      share: {
        uid: '0b6f2f7e-2222-4a2b-8c3d-000000000009',
        url: URL_OF_LINK,
        expires_at: '2026-12-04T10:00:00.000Z',
        allow_download: false,
        has_access_code: hasCode,
        created_at: '2026-11-27T10:00:00.000Z',
        last_opened_at: null,
        open_count: 0,
      },
    }),
  );
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

async function openDialog() {
  const user = userEvent.setup();
  renderPage(<ShareButton itemUid={ITEM} />, { path: '/imageview' });
  await user.click(screen.getByRole('button', { name: 'Share' }));
  return { user, dialog: await screen.findByRole('dialog', { name: 'Share' }) };
}

describe('ShareDialog', () => {
  it('offers labelled fields, seven days by default, and creates the link the form describes', async () => {
    const server = stubFetchByPath({ [SHARES_PATH]: () => created(true) });
    vi.stubGlobal('fetch', server.fetchStub);
    const { user, dialog } = await openDialog();

    const expiry = within(dialog).getByLabelText('Link expires after');
    expect(expiry).toHaveValue('168');
    expect(
      within(expiry)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['1 hour', '1 day', '7 days', '30 days']);
    await user.selectOptions(expiry, '1 day');
    await user.type(within(dialog).getByLabelText('Access code (optional)'), '482913');
    expect(within(dialog).getByLabelText('Allow download')).not.toBeChecked();
    await user.type(within(dialog).getByLabelText('Note (optional)'), 'For my cardiologist');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    const link = await within(dialog).findByLabelText('Link');
    expect(link).toHaveValue(URL_OF_LINK);
    expect(server.sent).toHaveLength(1);
    expect(createShareBodySchema.parse(server.sent[0]!.body)).toEqual({
      expires_in_hours: 24,
      access_code: '482913',
      allow_download: false,
      note: 'For my cardiologist',
    });

    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(URL_OF_LINK);
    expect(await screen.findByText('The link was copied.')).toBeInTheDocument();
  });

  it('refuses an access code that is not 4 to 12 digits without asking the server', async () => {
    const server = stubFetchByPath({});
    vi.stubGlobal('fetch', server.fetchStub);
    const { user, dialog } = await openDialog();

    await user.type(within(dialog).getByLabelText('Access code (optional)'), '12a');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The access code must be 4 to 12 digits.',
    );
    expect(server.calls).toHaveLength(0);
  });

  it('shows the server’s refusal in the dialog', async () => {
    const server = stubFetchByPath({ [SHARES_PATH]: () => answers.json(404, { error: 'Not found.' }) });
    vi.stubGlobal('fetch', server.fetchStub);
    const { user, dialog } = await openDialog();

    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent('Not found.'));
    expect(within(dialog).queryByLabelText('Link')).not.toBeInTheDocument();
  });
});
