import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { imageResponseSchema, meSchema } from '@ra/shared';
import { setAccessToken, setRefreshHandler } from '../../../lib/api-client';
import {
  answers,
  instancesAnswer,
  manyInstances,
  seriesAnswer,
  stubFetchByPath,
  type Answerer,
} from '../../../test/dicomweb';
import { stubIntersectionObserver } from '../../../test/intersection-observer';
import { renderPage } from '../../../test/render-page';
import { ImageViewPage } from './ImageViewPage';

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
const CT_PATH = `${STUDY_PATH}/series/${CT.uid}`;
const SR_PATH = `${STUDY_PATH}/series/${SR.uid}`;

function itemAnswer(isStudy = true) {
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
        first_name: 'Paula',
        last_name: 'Patient',
        uploadedBy_title: 'Dr.',
        uploadedBy_first_name: 'Ada',
        uploadedBy_last_name: 'Lane',
        authors: [],
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
    [`${CT_PATH}/instances`]: () => answers.dicomJson(instancesAnswer(CT.uid, ...manyInstances(500))),
    ...routes,
  });
  vi.stubGlobal('fetch', server.fetchStub);
  return server;
}

function renderView() {
  renderPage(<ImageViewPage />, {
    path: '/imageview',
    url: `/imageview?image=${UID}`,
    auth: { user: PHYSICIAN },
  });
}

function seriesButton(name: RegExp) {
  return screen.findByRole('button', { name });
}

async function chooseCtSeries() {
  await userEvent.click(await seriesButton(/CT · Series 1/));
  return screen.findByRole('region', { name: 'Images of Series 1: Head without contrast' });
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
    stubIntersectionObserver();
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
    // Until a series is chosen, the study's preview is shown, and no series is current.
    expect(screen.getByRole('img', { name: 'Medical image of Paula Patient' })).toHaveAttribute(
      'src',
      '/files/full.webp',
    );
    expect(ct).not.toHaveAttribute('aria-current');
  });

  it('shows the study facts and the patient as the files name them, labelled as such', async () => {
    stubIntersectionObserver();
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
    stubIntersectionObserver();
    const server = serve();
    renderView();

    const sr = await seriesButton(/SR · Series 2/);
    await waitFor(() => expect(sr).toHaveTextContent(/^SRNo preview/));
    expect(within(sr).queryByRole('presentation')).not.toBeInTheDocument();
    expect(server.callsTo(`${SR_PATH}/thumbnail`)).toHaveLength(1);
  });

  it('lists a chosen series’ images and fetches only those in view, as JPEG with the bearer token', async () => {
    const observer = stubIntersectionObserver();
    const server = serve({ [`${CT_PATH}/instances/9.9.1/rendered`]: answers.jpeg });
    renderView();

    const region = await chooseCtSeries();
    expect(await seriesButton(/CT · Series 1/)).toHaveAttribute('aria-current', 'true');
    expect(screen.getByRole('button', { name: /SR · Series 2/ })).not.toHaveAttribute('aria-current');
    expect(screen.queryByRole('img', { name: 'Medical image of Paula Patient' })).not.toBeInTheDocument();
    expect(server.callsTo(`${CT_PATH}/instances`)).toEqual([
      { path: `${CT_PATH}/instances`, accept: 'application/dicom+json', authorization: `Bearer ${TOKEN}` },
    ]);

    const entries = within(region).getAllByRole('listitem');
    expect(entries).toHaveLength(500);
    expect(within(entries[0]!).getByRole('figure', { name: 'Image 1 of 500' })).toBeInTheDocument();
    expect(within(entries[499]!).getByRole('figure', { name: 'Image 500 of 500' })).toBeInTheDocument();
    // Each entry is watched against the list's own scrolling area; nothing is fetched before it is seen.
    await waitFor(() => expect(observer.watched()).toHaveLength(500));
    expect(new Set(observer.watched())).toEqual(new Set([region]));
    const rendered = () => server.calls.filter((call) => call.path.endsWith('/rendered'));
    expect(rendered()).toEqual([]);

    observer.show(entries[0]!);
    expect(await within(entries[0]!).findByRole('img', { name: 'Image 1 of 500' })).toHaveAttribute(
      'src',
      expect.stringMatching(/^blob:test\//),
    );
    expect(rendered()).toEqual([
      { path: `${CT_PATH}/instances/9.9.1/rendered`, accept: 'image/jpeg', authorization: `Bearer ${TOKEN}` },
    ]);
    // An image once loaded is not fetched again, and stops being watched.
    observer.show(entries[0]!);
    expect(rendered()).toHaveLength(1);
    expect(observer.watched()).toHaveLength(499);
  });

  it('shows each frame of a multi-frame instance as its own entry', async () => {
    const observer = stubIntersectionObserver();
    const series = { ...CT, instances: 2 };
    const instance = `${CT_PATH}/instances`;
    const server = serve({
      [`${STUDY_PATH}/series`]: () => answers.dicomJson(seriesAnswer(STUDY, series)),
      [instance]: () =>
        answers.dicomJson(
          instancesAnswer(CT.uid, { sopUid: '9.9.1', number: 1 }, { sopUid: '9.9.2', number: 2, frames: 3 }),
        ),
      [`${instance}/9.9.1/rendered`]: answers.jpeg,
      [`${instance}/9.9.2/frames/1/rendered`]: answers.jpeg,
      [`${instance}/9.9.2/frames/2/rendered`]: answers.jpeg,
      [`${instance}/9.9.2/frames/3/rendered`]: answers.jpeg,
    });
    renderView();

    const region = await chooseCtSeries();
    const entries = within(region).getAllByRole('listitem');
    expect(entries.map((entry) => entry.textContent)).toEqual([
      'Image 1 of 4',
      'Image 2 of 4',
      'Image 3 of 4',
      'Image 4 of 4',
    ]);
    await waitFor(() => expect(observer.watched()).toHaveLength(4));
    observer.show(...entries);
    await waitFor(() => expect(within(region).getAllByRole('img')).toHaveLength(4));
    expect(server.calls.filter((call) => call.path.endsWith('/rendered')).map((call) => call.path)).toEqual([
      `${instance}/9.9.1/rendered`,
      `${instance}/9.9.2/frames/1/rendered`,
      `${instance}/9.9.2/frames/2/rendered`,
      `${instance}/9.9.2/frames/3/rendered`,
    ]);
  });

  it('lets the keyboard move through the series and choose one', async () => {
    stubIntersectionObserver();
    serve({
      [`${SR_PATH}/instances`]: () =>
        answers.dicomJson(instancesAnswer(SR.uid, { sopUid: '8.1', number: 1 })),
    });
    renderView();
    const ct = await seriesButton(/CT · Series 1/);
    const sr = await seriesButton(/SR · Series 2/);

    ct.focus();
    await userEvent.tab();
    expect(sr).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(sr).toHaveAttribute('aria-current', 'true');
    expect(ct).not.toHaveAttribute('aria-current');
    expect(
      await screen.findByRole('region', { name: 'Images of Series 2: Dose report' }),
    ).toBeInTheDocument();
    await userEvent.keyboard('{Shift>}{Tab}{/Shift}{Enter}');
    expect(ct).toHaveAttribute('aria-current', 'true');
  });

  it('says so when the study has no series', async () => {
    stubIntersectionObserver();
    serve({ [`${STUDY_PATH}/series`]: () => answers.dicomJson(seriesAnswer(STUDY)) });
    renderView();

    expect(await screen.findByText('This study has no series.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Medical image of Paula Patient' })).toBeInTheDocument();
  });

  it('shows spinners with labels while the series and an image load', async () => {
    const observer = stubIntersectionObserver();
    let answerSeries: (response: Response) => void = () => undefined;
    serve({
      [`${STUDY_PATH}/series`]: () => new Promise<Response>((resolve) => (answerSeries = resolve)),
      [`${CT_PATH}/instances`]: () => answers.dicomJson(instancesAnswer(CT.uid, ...manyInstances(2))),
      [`${CT_PATH}/instances/9.9.1/rendered`]: () => new Promise<Response>(() => undefined),
    });
    renderView();

    expect(await screen.findByText('Loading the series…')).toBeInTheDocument();
    answerSeries(answers.dicomJson(seriesAnswer(STUDY, CT)));
    const region = await chooseCtSeries();
    const [first] = within(region).getAllByRole('listitem');
    await waitFor(() => expect(observer.watched()).toHaveLength(2));
    observer.show(first!);
    expect(within(first!).getByRole('status')).toHaveTextContent('Loading Image 1 of 2…');
  });

  it('offers to retry when the series cannot be loaded', async () => {
    stubIntersectionObserver();
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

  it('offers to retry a series whose images cannot be listed', async () => {
    stubIntersectionObserver();
    serve({
      [`${CT_PATH}/instances`]: [
        answers.notFound,
        () => answers.dicomJson(instancesAnswer(CT.uid, ...manyInstances(3))),
      ],
    });
    renderView();

    await userEvent.click(await seriesButton(/CT · Series 1/));
    expect(await screen.findByText('The images of this series could not be loaded.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('figure', { name: 'Image 3 of 3' })).toBeInTheDocument();
  });

  it('offers to retry an image that cannot be loaded, and only that image', async () => {
    const observer = stubIntersectionObserver();
    const second = `${CT_PATH}/instances/9.9.2/rendered`;
    const server = serve({
      [`${CT_PATH}/instances`]: () => answers.dicomJson(instancesAnswer(CT.uid, ...manyInstances(2))),
      [`${CT_PATH}/instances/9.9.1/rendered`]: answers.jpeg,
      [second]: [answers.serverError, answers.jpeg],
    });
    renderView();

    const region = await chooseCtSeries();
    const entries = within(region).getAllByRole('listitem');
    await waitFor(() => expect(observer.watched()).toHaveLength(2));
    observer.show(...entries);
    expect(await within(entries[1]!).findByRole('alert')).toHaveTextContent(
      'This image could not be loaded.',
    );
    expect(await within(entries[0]!).findByRole('img', { name: 'Image 1 of 2' })).toBeInTheDocument();

    await userEvent.click(within(entries[1]!).getByRole('button', { name: 'Retry' }));
    expect(await within(entries[1]!).findByRole('img', { name: 'Image 2 of 2' })).toBeInTheDocument();
    expect(within(region).queryByRole('alert')).not.toBeInTheDocument();
    expect(server.callsTo(second)).toHaveLength(2);
    expect(server.callsTo(`${CT_PATH}/instances/9.9.1/rendered`)).toHaveLength(1);
  });

  it('refreshes an expired token once and asks for the image again', async () => {
    const observer = stubIntersectionObserver();
    const image = `${CT_PATH}/instances/9.9.1/rendered`;
    const server = serve({
      [`${CT_PATH}/instances`]: () => answers.dicomJson(instancesAnswer(CT.uid, ...manyInstances(1))),
      [image]: [() => answers.json(401, { error: 'Unauthorized' }), answers.jpeg],
    });
    setRefreshHandler(() => {
      setAccessToken('refreshed-token');
      return Promise.resolve(true);
    });
    renderView();

    const region = await chooseCtSeries();
    await waitFor(() => expect(observer.watched()).toHaveLength(1));
    observer.show(...within(region).getAllByRole('listitem'));
    expect(await within(region).findByRole('img', { name: 'Image 1 of 1' })).toBeInTheDocument();
    expect(server.callsTo(image).map((call) => call.authorization)).toEqual([
      `Bearer ${TOKEN}`,
      'Bearer refreshed-token',
    ]);
  });

  it('revokes the object URLs it made when the page goes', async () => {
    const observer = stubIntersectionObserver();
    serve({
      [`${CT_PATH}/instances`]: () => answers.dicomJson(instancesAnswer(CT.uid, ...manyInstances(1))),
      [`${CT_PATH}/instances/9.9.1/rendered`]: answers.jpeg,
    });
    renderView();

    const region = await chooseCtSeries();
    await waitFor(() => expect(observer.watched()).toHaveLength(1));
    observer.show(...within(region).getAllByRole('listitem'));
    await within(region).findByRole('img', { name: 'Image 1 of 1' });
    // The CT thumbnail and the image.
    expect(objectUrls).toHaveLength(2);
    cleanup();
    expect(revokeObjectUrl.mock.calls.map(([url]) => url).sort()).toEqual(objectUrls);
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
