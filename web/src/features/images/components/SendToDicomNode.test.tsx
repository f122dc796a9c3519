import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { dicomNodeListSchema, sendStudyResponseSchema } from '@ra/shared';
import { renderPage } from '../../../test/render-page';
import { SendToDicomNode } from './SendToDicomNode';

const ITEM_UID = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b99';
const NODES = dicomNodeListSchema.parse({
  nodes: [
    { ae_title: 'CT_ROOM', host: null, port: null, can_receive: false },
    { ae_title: 'PACS', host: '10.0.0.5', port: 104, can_receive: true },
    { ae_title: 'WORKSTATION', host: '10.0.0.9', port: 11112, can_receive: true },
  ],
});

function stub(answers: Record<string, [number, unknown]>) {
  const calls: { key: string; body: unknown }[] = [];
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${input}`;
    calls.push({
      key,
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
    });
    const answer = answers[key];
    if (!answer) {
      return Promise.reject(new Error(`unexpected fetch ${key}`));
    }
    return Promise.resolve(new Response(JSON.stringify(answer[1]), { status: answer[0] }));
  });
  return calls;
}

describe('SendToDicomNode', () => {
  it('offers the nodes that can receive and queues the study for the chosen one', async () => {
    const calls = stub({
      'GET /api/user/dicom-nodes': [200, NODES],
      [`POST /api/image/${ITEM_UID}/send`]: [202, sendStudyResponseSchema.parse({ job: 'job-1' })],
    });
    renderPage(<SendToDicomNode itemUid={ITEM_UID} />, { path: '/item' });
    const select = await screen.findByRole('combobox', { name: 'Send to DICOM node' });
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
      'PACS (10.0.0.5:104)',
      'WORKSTATION (10.0.0.9:11112)',
    ]);
    const user = userEvent.setup();
    await user.selectOptions(select, 'WORKSTATION');
    await user.click(screen.getByRole('button', { name: 'Send study' }));
    expect(
      await screen.findByText(
        'Sending the study to WORKSTATION. You will get a notification when it is done.',
      ),
    ).toBeInTheDocument();
    expect(calls.at(-1)).toEqual({
      key: `POST /api/image/${ITEM_UID}/send`,
      body: { ae_title: 'WORKSTATION' },
    });
  });

  it('shows nothing without a node to send to', async () => {
    const calls = stub({ 'GET /api/user/dicom-nodes': [200, { nodes: [NODES.nodes[0]] }] });
    renderPage(<SendToDicomNode itemUid={ITEM_UID} />, { path: '/item' });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByRole('combobox', { name: 'Send to DICOM node' })).not.toBeInTheDocument();
  });
});
