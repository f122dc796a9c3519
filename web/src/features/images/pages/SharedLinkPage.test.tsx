import { cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DOWNLOAD_PATHS,
  openedShareSchema,
  SHARE_NOT_AVAILABLE,
  SHARE_WRONG_CODE,
  shareNeedsCodeSchema,
} from '@ra/shared';
import { answers, seriesAnswer, stubFetchByPath, type Answerer } from '../../../test/dicomweb';
import { renderPage } from '../../../test/render-page';
import { dicomwebAccess } from '../../../lib/dicomweb';
import type { DiagnosticViewerProps } from '../../../viewer/components/DiagnosticViewer';
import { SharedLinkPage } from './SharedLinkPage';

// jsdom has no WebGL: a stand-in shows what the page hands the viewer (the e2e spec draws for real).
vi.mock('../../../viewer/components/DiagnosticViewer', () => ({
  prepareViewer: () => Promise.resolve(),
  default: (props: DiagnosticViewerProps) => <output data-testid="viewer-stand-in">{props.seriesUid}</output>,
}));
vi.mock('../../../viewer/components/RasterViewer', () => ({
  default: () => <output data-testid="raster-viewer-stand-in" />,
}));

const TOKEN = 'Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmE';
const OPEN_PATH = `/api/s/${TOKEN}`;
const ROOT = `/api/s/${TOKEN}/dicomweb`;
const STUDY = '1.2.826.0.1.3680043.2.1125.1';
const CT = { uid: `${STUDY}.1`, modality: 'CT', number: 1, description: 'Head', instances: 3 };

function opened(allowDownload = false) {
  return answers.json(
    200,
    openedShareSchema.parse({
      patient: { full_name: 'Paula Patient', dob: '1990-07-04' },
      item: {
        uid: '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01',
        kind: 'study',
        study: {
          study_instance_uid: STUDY,
          study_date: '2026-03-04',
          study_description: 'CT of the head',
          modalities: ['CT'],
          series_count: 1,
          instance_count: 3,
          patient_name_in_file: 'PATIENT^PAULA',
          patient_birth_date_in_file: '1990-07-04',
        },
        url: '/api/files/previews/x.png?sig=1',
        thumbnail_url: null,
        content_type: 'image/png',
        width: 512,
        height: 512,
        createdAt: '2026-03-05T10:00:00.000Z',
        patient_uid: '0b6f2f7e-2222-4a2b-8c3d-000000000003',
        first_name: 'Paula',
        last_name: 'Patient',
        uploadedBy_title: 'Dr.',
        uploadedBy_first_name: 'Ada',
        uploadedBy_last_name: 'Lane',
        authors: [],
      },
      expires_at: '2026-12-04T10:00:00.000Z',
      allow_download: allowDownload,
      dicomweb_root: ROOT,
    }),
  );
}

const needsCode = () => answers.json(200, shareNeedsCodeSchema.parse({ needs_access_code: true }));
const wrongCode = () => answers.json(401, { error: SHARE_WRONG_CODE });
const notAvailable = () => answers.json(404, { error: 'This link is not available.' });

/** The stub, recording the access code and bearer token each request carried. */
function serve(routes: Record<string, Answerer | Answerer[]>) {
  const server = stubFetchByPath(routes);
  const codes: { path: string; code: string | null; authorization: string | null }[] = [];
  vi.stubGlobal('fetch', (input: string, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    codes.push({
      path: input,
      code: headers.get('x-access-code'),
      authorization: headers.get('authorization'),
    });
    return server.fetchStub(input, init);
  });
  return { ...server, codes };
}

function renderLink() {
  renderPage(<SharedLinkPage />, { path: '/s/:token', url: `/s/${TOKEN}` });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SharedLinkPage', () => {
  it('asks for the code, says a wrong one is wrong, then shows the study read from the link’s DICOMweb', async () => {
    const server = serve({
      [OPEN_PATH]: [needsCode, wrongCode, opened],
      [`${ROOT}/studies/${STUDY}/series`]: () => answers.dicomJson(seriesAnswer(STUDY, CT)),
      [`${ROOT}/studies/${STUDY}/series/${CT.uid}/thumbnail`]: answers.jpeg,
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderLink();

    const code = await screen.findByLabelText('Access code');
    await user.type(code, '1111');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText(SHARE_WRONG_CODE)).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(SHARE_WRONG_CODE);

    await user.clear(screen.getByLabelText('Access code'));
    await user.type(screen.getByLabelText('Access code'), '482913');
    await user.click(screen.getByRole('button', { name: 'Open' }));

    const banner = await screen.findByTestId('share-banner');
    expect(banner).toHaveTextContent('Paula Patient');
    expect(banner).toHaveTextContent(/shared with you until/);
    expect(await screen.findByTestId('viewer-stand-in')).toHaveTextContent(CT.uid);
    // Nothing that writes, and no download.
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /download/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /reading room/i })).not.toBeInTheDocument();

    const sent = server.codes;
    expect(sent.filter((call) => call.path === OPEN_PATH).map((call) => call.code)).toEqual([
      null,
      '1111',
      '482913',
    ]);
    const dicomweb = sent.filter((call) => call.path.startsWith(ROOT));
    expect(dicomweb.length).toBeGreaterThan(0);
    expect(dicomweb.every((call) => call.code === '482913' && call.authorization === null)).toBe(true);
    // The archive's own API (annotations, reports) is never asked.
    expect(sent.every((call) => call.path === OPEN_PATH || call.path.startsWith(ROOT))).toBe(true);
    expect(dicomwebAccess().root).toBe(ROOT);
  });

  it('downloads the ZIP with the code and no token when the link allows it, and says when the link is gone', async () => {
    const zipPath = DOWNLOAD_PATHS.shared(TOKEN);
    const zip = () =>
      new Response(new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array<number>(18).fill(0)]), {
        status: 200,
        headers: {
          'content-type': 'application/zip',
          'content-length': '22',
          'content-disposition': 'attachment; filename="radiology-archive-study-2026-03-05-7c1e4a52.zip"',
          etag: '"z1"',
        },
      });
    const server = serve({
      [OPEN_PATH]: [needsCode, () => opened(true)],
      [`${ROOT}/studies/${STUDY}/series`]: () => answers.dicomJson(seriesAnswer(STUDY, CT)),
      [`${ROOT}/studies/${STUDY}/series/${CT.uid}/thumbnail`]: answers.jpeg,
      [zipPath]: [zip, notAvailable],
    });
    const saved: Blob[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      saved.push(blob as Blob);
      return 'blob:test/1';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderLink();
    await user.type(await screen.findByLabelText('Access code'), '482913');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByTestId('share-banner')).toHaveTextContent('You may download a copy.');

    const button = screen.getByRole('button', { name: 'Download the images (ZIP)' });
    await user.click(button);
    expect(await screen.findByText('Download complete.')).toBeInTheDocument();
    const zipBlobs = saved.filter((blob) => blob.type === 'application/zip');
    expect(zipBlobs).toHaveLength(1);
    expect(zipBlobs[0]!.size).toBe(22);
    const asked = server.codes.filter((call) => call.path === zipPath);
    expect(asked).toEqual([{ path: zipPath, code: '482913', authorization: null }]);

    // Revoked meanwhile: the link's own words, not the item's.
    await user.click(button);
    expect(await screen.findByText(SHARE_NOT_AVAILABLE)).toHaveClass('alert-danger');
  });

  it('says a link that cannot be opened is not available', async () => {
    serve({ [OPEN_PATH]: notAvailable });
    renderLink();
    expect(await screen.findByRole('heading', { name: 'This link is not available.' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Access code')).not.toBeInTheDocument();
  });

  it('shows the not-available page once the link locks', async () => {
    serve({ [OPEN_PATH]: [needsCode, notAvailable] });
    const user = userEvent.setup();
    renderLink();
    await user.type(await screen.findByLabelText('Access code'), '0000');
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('heading', { name: 'This link is not available.' })).toBeInTheDocument();
  });

  it('points DICOMweb back at /dicomweb when the page closes', async () => {
    serve({
      [OPEN_PATH]: opened,
      [`${ROOT}/studies/${STUDY}/series`]: () => answers.dicomJson(seriesAnswer(STUDY, CT)),
      [`${ROOT}/studies/${STUDY}/series/${CT.uid}/thumbnail`]: answers.jpeg,
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    renderLink();
    await screen.findByTestId('share-banner');
    await waitFor(() => expect(dicomwebAccess().isShared).toBe(true));
    cleanup();
    expect(dicomwebAccess()).toEqual({ root: '/dicomweb', headers: {}, isShared: false });
  });
});
