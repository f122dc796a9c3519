import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { imagePageSchema, imageResponseSchema, meSchema, type Image } from '@ra/shared';
import { setAccessToken } from '../../../lib/api-client';
import { answers, seriesAnswer, stubFetchByPath, type Answerer } from '../../../test/dicomweb';
import { renderPage } from '../../../test/render-page';
import type { DiagnosticViewerProps } from '../../../viewer/components/DiagnosticViewer';
import { ImageViewPage } from './ImageViewPage';

// jsdom has no WebGL: a stand-in shows what each viewport is handed, and activates it on a click.
vi.mock('../../../viewer/components/DiagnosticViewer', () => ({
  prepareViewer: () => Promise.resolve(),
  default: (props: DiagnosticViewerProps) => (
    <div
      data-testid="viewer-stand-in"
      data-study={props.studyUid}
      data-series={props.seriesUid}
      data-links={props.layoutCell?.linkGroup ? (props.layoutCell.linkKinds?.join(',') ?? 'all') : 'none'}
    >
      <output>{props.facts.studyLabel ?? ''}</output>
      <span data-testid="stand-in-item">{props.itemUid}</span>
      {props.keyImages && <span>marks key images</span>}
      <button type="button" onClick={props.layoutCell?.onActivate}>
        Activate {props.seriesUid}
      </button>
    </div>
  ),
}));

const RADIOLOGIST = meSchema.parse({
  uid: '4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b11',
  email: 'reader@example.com',
  displayName: 'Dr. Ray Diologist',
  role: 'Radiologist',
  email_verified: true,
  mfa_enabled: false,
});
const PATIENT_UID = '0b6f2f7e-2222-4a2b-8c3d-000000000003';
const LIST_PATH = `/api/user/${PATIENT_UID}/images?limit=50`;
const CURRENT_UID = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01';
const PRIOR_UID = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b02';
const OLDER_UID = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b03';

function item(uid: string, studyUid: string, date: string, modalities: string[], createdAt: string): Image {
  return imageResponseSchema.parse({
    image: {
      uid,
      kind: 'study',
      study: {
        study_instance_uid: studyUid,
        study_date: date,
        study_description: 'CT chest',
        modalities,
        series_count: 1,
        instance_count: 100,
        patient_name_in_file: 'PATIENT^PAULA',
        patient_birth_date_in_file: null,
      },
      url: '/files/full.webp',
      thumbnail_url: '/files/thumb.webp',
      content_type: 'image/webp',
      width: 512,
      height: 512,
      createdAt,
      patient_uid: PATIENT_UID,
      first_name: 'Paula',
      last_name: 'Patient',
      uploadedBy_title: 'Dr.',
      uploadedBy_first_name: 'Ada',
      uploadedBy_last_name: 'Lane',
      authors: [],
    },
  }).image;
}

const CURRENT = item(CURRENT_UID, '1.2.3.1', '2026-03-04', ['CT', 'SR'], '2026-03-05T10:00:00.000Z');
const PRIOR = item(PRIOR_UID, '1.2.3.2', '2025-03-12', ['CT'], '2025-03-13T10:00:00.000Z');
const OLDER = item(OLDER_UID, '1.2.3.3', '2023-01-20', ['CT'], '2026-03-06T10:00:00.000Z');
const MR_ONLY = item(OLDER_UID, '1.2.3.3', '2025-12-01', ['MR'], '2025-12-02T10:00:00.000Z');

const series =
  (studyUid: string, ...list: { uid: string; modality: string; description: string }[]) =>
  () =>
    answers.dicomJson(
      seriesAnswer(
        studyUid,
        ...list.map((entry, index) => ({ ...entry, number: index + 1, instances: 100 })),
      ),
    );
const page =
  (images: Image[], next_cursor: string | null = null): Answerer =>
  () =>
    answers.json(200, imagePageSchema.parse({ images, next_cursor }));

function serve(routes: Record<string, Answerer>) {
  const server = stubFetchByPath({
    [`/api/image/${CURRENT_UID}`]: () => answers.json(200, imageResponseSchema.parse({ image: CURRENT })),
    '/dicomweb/studies/1.2.3.1/series': series(
      '1.2.3.1',
      { uid: '1.2.3.1.9', modality: 'SR', description: 'Dose report' },
      { uid: '1.2.3.1.1', modality: 'CT', description: 'Chest 1.0 B70f' },
    ),
    '/dicomweb/studies/1.2.3.2/series': series(
      '1.2.3.2',
      { uid: '1.2.3.2.1', modality: 'CT', description: 'Abdomen' },
      { uid: '1.2.3.2.2', modality: 'CT', description: 'chest 1.0 b70f' },
    ),
    ...routes,
  });
  // Thumbnails and metadata are not what these tests are about.
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) =>
    /\/(thumbnail|metadata)$/.test(input)
      ? Promise.resolve(answers.notFound())
      : server.fetchStub(input, init),
  );
  return server;
}

function renderReadingRoom() {
  renderPage(<ImageViewPage />, {
    path: '/imageview',
    url: `/imageview?image=${CURRENT_UID}&reading=1`,
    auth: { user: RADIOLOGIST },
  });
}

beforeEach(() => {
  setAccessToken('token');
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:test/1');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

afterEach(() => {
  cleanup();
  setAccessToken(null);
  vi.unstubAllGlobals();
});

describe('the reading room and the prior study', () => {
  it('hangs the study beside its most recent earlier CT, named with its date, and back', async () => {
    serve({ [LIST_PATH]: page([OLDER, CURRENT, PRIOR]) });
    renderReadingRoom();

    const compare = await screen.findByRole('button', { name: 'Compare with prior' });
    expect(compare).toHaveAttribute('aria-pressed', 'false');
    expect(compare).toHaveAttribute('title', expect.stringContaining('Prior · Mar 12, 2025'));
    expect(await screen.findAllByTestId('viewer-stand-in')).toHaveLength(1);

    await userEvent.click(compare);
    expect(compare).toHaveAttribute('aria-pressed', 'true');
    const [current, prior] = await screen.findAllByTestId('viewer-stand-in');
    expect(current).toHaveAttribute('data-series', '1.2.3.1.1');
    expect(current).toHaveTextContent('Current · Mar 4, 2026');
    expect(current).toHaveTextContent('marks key images');
    // The prior's series of the same description, its own item, no key images of this note.
    expect(prior).toHaveAttribute('data-study', '1.2.3.2');
    expect(prior).toHaveAttribute('data-series', '1.2.3.2.2');
    expect(prior).toHaveTextContent('Prior · Mar 12, 2025');
    expect(within(prior!).getByTestId('stand-in-item')).toHaveTextContent(PRIOR_UID);
    expect(prior).not.toHaveTextContent('marks key images');

    // Two patient spaces: unlinked at first; linked, they keep window, zoom and pan, not position.
    const link = screen.getByRole('button', { name: 'Link viewports' });
    expect(link).toHaveAttribute('aria-pressed', 'false');
    expect(prior).toHaveAttribute('data-links', 'none');
    await userEvent.click(link);
    for (const viewport of screen.getAllByTestId('viewer-stand-in')) {
      expect(viewport).toHaveAttribute('data-links', 'window,zoomPan');
    }

    // With the prior's viewport active, the strip lists the prior's series and changes its own.
    await userEvent.click(within(prior!).getByRole('button', { name: /Activate/ }));
    const strip = screen.getByRole('navigation', { name: 'Series' });
    expect(within(strip).getByText('Prior · Mar 12, 2025')).toBeInTheDocument();
    await userEvent.click(within(strip).getByRole('button', { name: /Abdomen/ }));
    await waitFor(() =>
      expect(screen.getAllByTestId('viewer-stand-in')[1]).toHaveAttribute('data-series', '1.2.3.2.1'),
    );
    expect(screen.getAllByTestId('viewer-stand-in')[0]).toHaveAttribute('data-series', '1.2.3.1.1');

    await userEvent.click(compare);
    expect(compare).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getAllByTestId('viewer-stand-in')).toHaveLength(1);
  });

  it('reads every page of the patient’s list before choosing', async () => {
    const server = serve({
      [LIST_PATH]: page([CURRENT], 'next'),
      [`${LIST_PATH}&cursor=next`]: page([PRIOR]),
    });
    renderReadingRoom();

    await userEvent.click(await screen.findByRole('button', { name: 'Compare with prior' }));
    expect(await screen.findByText('Prior · Mar 12, 2025')).toBeInTheDocument();
    expect(server.callsTo(`${LIST_PATH}&cursor=next`)).toHaveLength(1);
  });

  it('offers no comparison when the list the caller may see holds no earlier study of a shared modality', async () => {
    const server = serve({ [LIST_PATH]: page([CURRENT, MR_ONLY]) });
    renderReadingRoom();

    await screen.findByTestId('viewer-stand-in');
    await waitFor(() => expect(server.callsTo(LIST_PATH)).toHaveLength(1));
    // Long enough for a toggle to show, had there been a prior.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Compare with prior' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: '← Study page' })).toBeInTheDocument();
  });
});
