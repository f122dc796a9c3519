import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { imageResponseSchema, meSchema } from '@ra/shared';
import { setAccessToken, setRefreshHandler } from '../../../lib/api-client';
import { answers, seriesAnswer, stubFetchByPath, type Answerer } from '../../../test/dicomweb';
import { renderPage } from '../../../test/render-page';
import type { DiagnosticViewerProps } from '../../../viewer/components/DiagnosticViewer';
import { ImageViewPage } from './ImageViewPage';

// The viewer draws with WebGL, which jsdom lacks; the end-to-end tests drive the real one in
// Chromium. Here a stand-in shows what the page hands it.
// Its key-image button marks one fixed frame, as the real viewer marks the image it shows.
const MARKED_IN_VIEWER = {
  sop_instance_uid: '1.2.826.0.1.3680043.2.1125.1.1.7',
  frame: 1,
  window: { center: 40, width: 400 },
};
vi.mock('../../../viewer/components/DiagnosticViewer', () => ({
  prepareViewer: () => Promise.resolve(),
  default: (props: DiagnosticViewerProps) => (
    <>
      <output data-testid="viewer-stand-in">
        {JSON.stringify(props, (_, value: unknown) => (value instanceof HTMLElement ? undefined : value))}
      </output>
      {props.keyImages && (
        <button type="button" onClick={() => props.keyImages?.onToggle(MARKED_IN_VIEWER)}>
          Stand-in key image
        </button>
      )}
    </>
  ),
}));

vi.mock('../../../viewer/components/RasterViewer', () => ({
  default: () => <output data-testid="raster-viewer-stand-in" />,
}));

const PHYSICIAN = meSchema.parse({
  uid: '4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b11',
  email: 'doctor@example.com',
  displayName: 'Dr. Ada Lane',
  role: 'Physician',
  email_verified: true,
  mfa_enabled: false,
});

const TOKEN = 'access-token-of-ada';
const UID = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01';
const PATIENT_UID = '0b6f2f7e-2222-4a2b-8c3d-000000000003';
const STUDY = '1.2.826.0.1.3680043.2.1125.1';
const STUDY_PATH = `/dicomweb/studies/${STUDY}`;
const CT = {
  uid: `${STUDY}.1`,
  modality: 'CT',
  number: 1,
  description: 'Head without contrast',
  instances: 500,
};
const SR = { uid: `${STUDY}.2`, modality: 'SR', number: 2, description: 'Dose report', instances: 1 };
const MR = { uid: `${STUDY}.3`, modality: 'MR', number: 3, description: 'T2 axial', instances: 24 };
const CT_PATH = `${STUDY_PATH}/series/${CT.uid}`;
const SR_PATH = `${STUDY_PATH}/series/${SR.uid}`;

const RADIOLOGIST_KEY_IMAGE = {
  sop_instance_uid: `${MR.uid}.12`,
  frame: 1,
  window: { center: 300, width: 600 },
};

function itemAnswer(isStudy = true, authors: unknown[] = []) {
  return answers.json(
    200,
    imageResponseSchema.parse({
      image: {
        uid: UID,
        kind: isStudy ? 'study' : 'image',
        study: isStudy
          ? {
              study_instance_uid: STUDY,
              study_date: '2026-03-04',
              study_description: 'CT and MR of the head',
              modalities: ['CT', 'SR'],
              series_count: 2,
              instance_count: 501,
              patient_name_in_file: 'SMITH^JOHN',
              patient_birth_date_in_file: '1990-07-04',
            }
          : null,
        url: '/files/full.webp',
        thumbnail_url: '/files/thumb.webp',
        content_type: 'image/webp',
        width: 1024,
        height: 768,
        createdAt: '2026-03-05T10:00:00.000Z',
        patient_uid: PATIENT_UID,
        first_name: 'Paula',
        last_name: 'Patient',
        uploadedBy_title: 'Dr.',
        uploadedBy_first_name: 'Ada',
        uploadedBy_last_name: 'Lane',
        authors,
      },
    }),
  );
}

/** The item, its CT and SR series (the SR has no picture), and whatever else a test adds. */
function serve(routes: Record<string, Answerer | Answerer[]> = {}) {
  const server = stubFetchByPath({
    [`/api/image/${UID}`]: () => itemAnswer(),
    [`${STUDY_PATH}/series`]: () => answers.dicomJson(seriesAnswer(STUDY, CT, SR)),
    [`${CT_PATH}/thumbnail`]: answers.jpeg,
    [`${SR_PATH}/thumbnail`]: answers.notFound,
    [`/api/image/${UID}/reported-annotations`]: () => answers.json(200, { reports: [] }),
    ...routes,
  });
  vi.stubGlobal('fetch', server.fetchStub);
  return server;
}

function renderView(query = '') {
  renderPage(<ImageViewPage />, {
    path: '/imageview',
    url: `/imageview?image=${UID}${query}`,
    auth: { user: PHYSICIAN },
  });
}

/** The QIDO-RS search for the series of an instance, and its answer. */
function seriesOfInstance(sopInstanceUid: string, seriesUid?: string): Record<string, Answerer> {
  const path = `${STUDY_PATH}/instances?SOPInstanceUID=${sopInstanceUid}&includefield=0020000E`;
  return {
    [path]: () => answers.dicomJson(seriesUid ? [{ '0020000E': { vr: 'UI', Value: [seriesUid] } }] : []),
  };
}

function seriesButton(name: RegExp) {
  return screen.findByRole('button', { name });
}

async function chooseCtSeries() {
  await userEvent.click(await seriesButton(/CT · Series 1/));
  await screen.findByTestId('viewer-stand-in');
}

/** What the page handed the (first) viewer, as the stand-in shows it. */
function viewerProps(): DiagnosticViewerProps | undefined {
  const standIn = screen.queryAllByTestId('viewer-stand-in')[0];
  return standIn ? (JSON.parse(standIn.textContent ?? '') as DiagnosticViewerProps) : undefined;
}

let objectUrls: string[];
let revokeObjectUrl: MockInstance<typeof URL.revokeObjectURL>;

beforeEach(() => {
  setAccessToken(TOKEN);
  objectUrls = [];
  // jsdom makes no object URLs; the page's must be made from what was fetched, and revoked.
  vi.spyOn(URL, 'createObjectURL').mockImplementation(() => {
    objectUrls.push(`blob:test/${objectUrls.length + 1}`);
    return objectUrls.at(-1)!;
  });
  revokeObjectUrl = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
});

afterEach(() => {
  setAccessToken(null);
  setRefreshHandler(null);
});

describe('ImageViewPage for a study', () => {
  it('lists the series from the QIDO-RS answer, asked for as DICOM JSON with the bearer token', async () => {
    const server = serve();
    renderView();

    const ct = await seriesButton(/CT · Series 1/);
    expect(ct).toHaveTextContent('CT · Series 1Head without contrast500 images');
    expect(await seriesButton(/SR · Series 2/)).toHaveTextContent('Dose report1 image');
    expect(server.callsTo(`${STUDY_PATH}/series`)).toEqual([
      { path: `${STUDY_PATH}/series`, accept: 'application/dicom+json', authorization: `Bearer ${TOKEN}` },
    ]);
    // The thumbnail is fetched with the token and shown through an object URL.
    await waitFor(() => expect(within(ct).getByRole('presentation')).toHaveAttribute('src', 'blob:test/1'));
    expect(server.callsTo(`${CT_PATH}/thumbnail`)).toEqual([
      { path: `${CT_PATH}/thumbnail`, accept: 'image/jpeg', authorization: `Bearer ${TOKEN}` },
    ]);
    // The first series of images opens in the viewer at once.
    expect(ct).toHaveAttribute('aria-current', 'true');
    expect(await screen.findByTestId('viewer-stand-in')).toBeInTheDocument();
  });

  it('shows the study’s preview when no series has images to view', async () => {
    serve({ [`${STUDY_PATH}/series`]: () => answers.dicomJson(seriesAnswer(STUDY, SR)) });
    renderView();

    const sr = await seriesButton(/SR · Series 2/);
    expect(sr).not.toHaveAttribute('aria-current');
    expect(screen.getByRole('img', { name: 'Medical image of Paula Patient' })).toHaveAttribute(
      'src',
      '/files/full.webp',
    );
    expect(screen.queryByTestId('viewer-stand-in')).not.toBeInTheDocument();
    // Chosen anyway, it opens in the viewer, which says what it can show.
    await userEvent.click(sr);
    await waitFor(() => expect(viewerProps()?.seriesUid).toBe(SR.uid));
  });

  it('shows the study facts and the patient as the files name them, labelled as such', async () => {
    serve();
    renderView();

    expect(await screen.findByText('CT and MR of the head')).toBeInTheDocument();
    expect(screen.getByText('3/4/26 · 2 series · 501 instances')).toBeInTheDocument();
    expect(screen.getByText('Patient’s name in the files').nextElementSibling).toHaveTextContent(
      'JOHN SMITH',
    );
    expect(screen.getByText('Birth date in the files').nextElementSibling).toHaveTextContent('July 4, 1990');
  });

  it('shows the modality and "No preview" for a series whose thumbnail answers 404, without asking again', async () => {
    const server = serve();
    renderView();

    const sr = await seriesButton(/SR · Series 2/);
    await waitFor(() => expect(sr).toHaveTextContent(/^SRNo preview/));
    expect(within(sr).queryByRole('presentation')).not.toBeInTheDocument();
    expect(server.callsTo(`${SR_PATH}/thumbnail`)).toHaveLength(1);
  });

  it('opens the first series of images in the diagnostic viewer, with what its overlay says', async () => {
    serve();
    renderView();

    await chooseCtSeries();
    expect(await seriesButton(/CT · Series 1/)).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('button', { name: /SR · Series 2/ })).not.toHaveAttribute('aria-current');
    // The viewer takes the preview's place.
    expect(screen.queryByRole('img', { name: 'Medical image of Paula Patient' })).not.toBeInTheDocument();
    const { layoutCell, ...props } = viewerProps()!;
    // One viewport of the layout, on its rendering engine, alone so linked to none.
    expect(layoutCell).toMatchObject({
      isActive: true,
      engineId: expect.stringMatching(/^layout-/) as string,
    });
    expect(layoutCell?.linkGroup).toBeUndefined();
    expect(props).toEqual({
      itemUid: UID,
      studyUid: STUDY,
      seriesUid: CT.uid,
      modality: 'CT',
      facts: {
        patientName: 'Paula Patient',
        studyDate: '3/4/26',
        studyDescription: 'CT and MR of the head',
        seriesTitle: 'CT · Series 1: Head without contrast',
      },
      // The physician writes a note, so they may mark key images (the function is not shown).
      keyImages: { marked: [], canMarkMore: true },
    });
  });

  it('opens the viewer on the series, frame and window of a key image the page names', async () => {
    serve({
      [`${STUDY_PATH}/series`]: () => answers.dicomJson(seriesAnswer(STUDY, CT, MR)),
      [`${STUDY_PATH}/series/${MR.uid}/thumbnail`]: answers.jpeg,
      ...seriesOfInstance(RADIOLOGIST_KEY_IMAGE.sop_instance_uid, MR.uid),
    });
    renderView(`&instance=${RADIOLOGIST_KEY_IMAGE.sop_instance_uid}&frame=1&center=300&width=600`);

    // The key image's series in the first viewport, the other beside it (two cross-sectional series).
    await waitFor(() => expect(viewerProps()?.seriesUid).toBe(MR.uid));
    expect(viewerProps()?.initialView).toEqual(RADIOLOGIST_KEY_IMAGE);
    expect(screen.getAllByTestId('viewer-stand-in')).toHaveLength(2);
    expect(await seriesButton(/MR · Series 3/)).toHaveAttribute('aria-current', 'true');
    // Another series chosen by hand opens on its own start.
    await userEvent.click(await seriesButton(/CT · Series 1/));
    await waitFor(() => expect(viewerProps()?.seriesUid).toBe(CT.uid));
    expect(viewerProps()?.initialView).toBeUndefined();
  });

  it('compares series in two or four viewports; the list fills the active one', async () => {
    serve({
      [`${STUDY_PATH}/series`]: () => answers.dicomJson(seriesAnswer(STUDY, CT, SR, MR)),
      [`${STUDY_PATH}/series/${MR.uid}/thumbnail`]: answers.jpeg,
    });
    renderView();
    const shown = () =>
      screen
        .getAllByTestId('viewer-stand-in')
        .map((standIn) => (JSON.parse(standIn.textContent ?? '') as DiagnosticViewerProps).seriesUid);

    await waitFor(() => expect(viewerProps()?.seriesUid).toBe(CT.uid));
    // Two cross-sectional series hang side by side (the report is skipped).
    await waitFor(() => expect(shown()).toEqual([CT.uid, MR.uid]));
    await userEvent.click(screen.getByRole('button', { name: 'One viewport (1 × 1)' }));
    await waitFor(() => expect(shown()).toEqual([CT.uid]));
    await userEvent.click(screen.getByRole('button', { name: 'Two viewports (1 × 2)' }));
    // The second shows the next series of images.
    await waitFor(() => expect(shown()).toEqual([CT.uid, MR.uid]));
    expect(screen.getByRole('button', { name: 'Two viewports (1 × 2)' })).toHaveAttribute(
      'aria-pressed',
      'true',
    );

    await userEvent.click(screen.getByRole('button', { name: 'Four viewports (2 × 2)' }));
    const empty = screen.getByRole('button', { name: 'Viewport 3: choose a series from the list.' });
    expect(
      screen.getByRole('button', { name: 'Viewport 4: choose a series from the list.' }),
    ).toBeInTheDocument();
    await userEvent.click(empty);
    expect(empty).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(await seriesButton(/CT · Series 1/));
    await waitFor(() => expect(shown()).toEqual([CT.uid, MR.uid, CT.uid]));
    expect(await seriesButton(/CT · Series 1/)).toHaveAttribute('aria-current', 'true');

    await userEvent.click(screen.getByRole('button', { name: 'One viewport (1 × 1)' }));
    await waitFor(() => expect(shown()).toEqual([CT.uid]));
  });

  it('lists the measurements of the study’s reports and shows the image of each', async () => {
    const onMr = { series_instance_uid: MR.uid, sop_instance_uid: `${MR.uid}.5`, frame: 1 };
    serve({
      [`${STUDY_PATH}/series`]: () => answers.dicomJson(seriesAnswer(STUDY, CT, MR)),
      [`${STUDY_PATH}/series/${MR.uid}/thumbnail`]: answers.jpeg,
      [`/api/image/${UID}/reported-annotations`]: () =>
        answers.json(200, {
          reports: [
            {
              series_instance_uid: '2.25.1',
              sop_instance_uid: '2.25.2',
              series_description: 'OHIF measurements',
              author: 'Dr. Rita Reader',
              content_date: '2024-05-02',
              annotations: [
                {
                  kind: 'length',
                  frame: onMr,
                  data: {
                    points: [
                      [1, 2],
                      [3, 4],
                    ],
                  },
                  label: 'Length 2.8 mm',
                },
              ],
            },
          ],
        }),
    });
    renderView();

    const panel = await screen.findByRole('region', { name: 'Measurements from reports' });
    expect(panel).toHaveTextContent('OHIF measurements by Dr. Rita Reader, 5/2/24 · 1 measurement');
    await waitFor(() => expect(screen.getAllByTestId('viewer-stand-in')).toHaveLength(2));
    await userEvent.click(
      within(panel).getByRole('button', { name: 'Show Length 2.8 mm from OHIF measurements in the viewer' }),
    );
    // The MR hangs in the second viewport: that one shows the measurement's frame.
    await waitFor(() => {
      const [, second] = screen
        .getAllByTestId('viewer-stand-in')
        .map((standIn) => JSON.parse(standIn.textContent ?? '') as DiagnosticViewerProps);
      expect(second).toMatchObject({ seriesUid: MR.uid, frameToShow: { frame: onMr } });
    });
  });

  it('says quietly when the reports’ measurements cannot be read, and opens the viewer', async () => {
    serve({ [`/api/image/${UID}/reported-annotations`]: answers.serverError });
    renderView();

    expect(
      await screen.findByText('The measurements of the study’s reports could not be loaded.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(viewerProps()?.seriesUid).toBe(CT.uid));
    expect(screen.queryByRole('region', { name: 'Measurements from reports' })).not.toBeInTheDocument();
  });

  it('says so when the key image a page names is not in the study, and opens the first series', async () => {
    serve(seriesOfInstance('1.2.3.4.5'));
    renderView('&instance=1.2.3.4.5&frame=1&center=40&width=80');

    expect(await screen.findByText('The key image could not be found in this study.')).toBeInTheDocument();
    await waitFor(() => expect(viewerProps()?.seriesUid).toBe(CT.uid));
    expect(viewerProps()?.initialView).toBeUndefined();
  });

  it('saves the key images marked in the viewer with the note, and lets the author remove them', async () => {
    const saved = {
      uid: PHYSICIAN.uid,
      role: 'PHYSICIAN',
      full_name: 'Dr. Ada Lane',
      note: 'Mass',
      recommendation: null,
      // As the server shows it: with where the image is in the study.
      key_images: [{ ...MARKED_IN_VIEWER, series_number: 1, modality: 'CT', instance_number: 7 }],
      updatedAt: '2026-03-06T10:00:00.000Z',
    };
    // The item, the PATCH's answer, then the item as saved.
    const server = serve({
      [`/api/image/${UID}`]: [
        () => itemAnswer(),
        () => answers.json(200, { success: true, note: 'Mass' }),
        () => itemAnswer(true, [saved]),
      ],
    });
    renderView();

    expect(await screen.findByText(/No key images\. Mark the images/)).toBeInTheDocument();
    await userEvent.click(await screen.findByRole('button', { name: 'Stand-in key image' }));
    const link = await screen.findByRole('link', { name: 'Key image 1 (W 400 L 40)' });
    expect(link).toHaveAttribute(
      'href',
      `/imageview?image=${UID}&instance=${MARKED_IN_VIEWER.sop_instance_uid}&frame=1&center=40&width=400`,
    );
    expect(screen.getByText('Key images of your note (1), saved with it:')).toBeInTheDocument();
    expect(viewerProps()?.keyImages?.marked).toEqual([MARKED_IN_VIEWER]);
    await userEvent.type(screen.getByLabelText('Notes'), 'Mass');
    await userEvent.click(screen.getByRole('button', { name: 'Save Note' }));
    await waitFor(() =>
      expect(server.sent).toEqual([
        {
          path: `/api/image/${UID}`,
          method: 'PATCH',
          body: { note: 'Mass', key_images: [MARKED_IN_VIEWER] },
        },
      ]),
    );

    // The saved note lists it too, named by its place; the author's draft can still drop it.
    expect(
      await screen.findByRole('link', { name: 'Key image 1: CT series 1, image 7 (W 400 L 40)' }),
    ).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove key image 1' }));
    expect(screen.queryByRole('link', { name: 'Key image 1 (W 400 L 40)' })).not.toBeInTheDocument();
    expect(
      screen.getByRole('link', { name: 'Key image 1: CT series 1, image 7 (W 400 L 40)' }),
    ).toBeInTheDocument();
    expect(viewerProps()?.keyImages?.marked).toEqual([]);
  });

  it('links each author’s key images to the viewer', async () => {
    serve({
      [`/api/image/${UID}`]: () =>
        itemAnswer(true, [
          {
            uid: '9d0a2b52-5d3c-4d43-9d55-0a4f6f0a4b99',
            role: 'RADIOLOGIST',
            full_name: 'Dr. John Radiologist',
            note: 'See the key image.',
            recommendation: null,
            key_images: [{ ...RADIOLOGIST_KEY_IMAGE, series_number: 2, modality: 'MR', instance_number: 12 }],
            updatedAt: '2026-03-06T10:00:00.000Z',
          },
        ]),
    });
    renderView();

    const link = await screen.findByRole('link', {
      name: 'Key image 1: MR series 2, image 12 (W 600 L 300)',
    });
    expect(link).toHaveAttribute(
      'href',
      `/imageview?image=${UID}&instance=${RADIOLOGIST_KEY_IMAGE.sop_instance_uid}&frame=1&center=300&width=600`,
    );
  });

  it('lets the keyboard move through the series and choose one', async () => {
    serve();
    renderView();
    const ct = await seriesButton(/CT · Series 1/);
    const sr = await seriesButton(/SR · Series 2/);

    ct.focus();
    await userEvent.tab();
    expect(sr).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(sr).toHaveAttribute('aria-current', 'true');
    expect(ct).not.toHaveAttribute('aria-current');
    await waitFor(() => expect(viewerProps()?.seriesUid).toBe(SR.uid));
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}{Enter}');
    expect(ct).toHaveAttribute('aria-current', 'true');
    await waitFor(() => expect(viewerProps()?.seriesUid).toBe(CT.uid));
  });

  it('says so when the study has no series', async () => {
    serve({ [`${STUDY_PATH}/series`]: () => answers.dicomJson(seriesAnswer(STUDY)) });
    renderView();

    expect(await screen.findByText('This study has no series.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Medical image of Paula Patient' })).toBeInTheDocument();
  });

  it('shows a spinner with a label while the series load', async () => {
    let answerSeries: (response: Response) => void = () => undefined;
    serve({
      [`${STUDY_PATH}/series`]: () => new Promise<Response>((resolve) => (answerSeries = resolve)),
    });
    renderView();

    expect(await screen.findByText('Loading the series…')).toBeInTheDocument();
    answerSeries(answers.dicomJson(seriesAnswer(STUDY, CT)));
    expect(await seriesButton(/CT · Series 1/)).toBeInTheDocument();
    expect(screen.queryByText('Loading the series…')).not.toBeInTheDocument();
  });

  it('offers to retry when the series cannot be loaded', async () => {
    const server = serve({
      [`${STUDY_PATH}/series`]: [answers.serverError, () => answers.dicomJson(seriesAnswer(STUDY, CT))],
    });
    renderView();

    expect(await screen.findByText('The series could not be loaded.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await seriesButton(/CT · Series 1/)).toBeInTheDocument();
    expect(screen.queryByText('The series could not be loaded.')).not.toBeInTheDocument();
    expect(server.callsTo(`${STUDY_PATH}/series`)).toHaveLength(2);
  });

  it('revokes the object URLs it made when the page goes', async () => {
    serve();
    renderView();

    const ct = await seriesButton(/CT · Series 1/);
    await waitFor(() => expect(within(ct).getByRole('presentation')).toHaveAttribute('src', 'blob:test/1'));
    expect(objectUrls).toEqual(['blob:test/1']);
    cleanup();
    expect(revokeObjectUrl.mock.calls.map(([url]) => url)).toEqual(objectUrls);
  });
});

describe('ImageViewPage for a raster image', () => {
  it('asks nothing of DICOMweb and shows the image as before', async () => {
    const server = stubFetchByPath({ [`/api/image/${UID}`]: () => itemAnswer(false) });
    vi.stubGlobal('fetch', server.fetchStub);
    renderView();

    expect(await screen.findByRole('img', { name: 'Medical image of Paula Patient' })).toHaveAttribute(
      'src',
      '/files/full.webp',
    );
    expect(screen.queryByRole('heading', { name: 'Series' })).not.toBeInTheDocument();
    expect(server.calls.map((call) => call.path)).toEqual([`/api/image/${UID}`]);
  });
});
