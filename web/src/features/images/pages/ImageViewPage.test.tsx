import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { imageResponseSchema, meSchema } from '@ra/shared';
import { renderPage, stubFetch } from '../../../test/render-page';
import { ImageViewPage } from './ImageViewPage';

// The viewers (Cornerstone3D, driven in Chromium by the end-to-end tests) are not this page's
// facts; their modules would still be loading when jsdom goes.
vi.mock('../../../viewer/components/DiagnosticViewer', () => ({
  prepareViewer: () => Promise.resolve(),
  default: () => <output>viewer</output>,
}));
vi.mock('../../../viewer/components/RasterViewer', () => ({ default: () => <output>viewer</output> }));

const PHYSICIAN = meSchema.parse({
  uid: '4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b11',
  email: 'doctor@example.com',
  displayName: 'Dr. Ada Lane',
  role: 'Physician',
  email_verified: true,
  mfa_enabled: false,
});

const UID = '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01';

function itemOf(study: unknown) {
  return imageResponseSchema.parse({
    image: {
      uid: UID,
      kind: study ? 'study' : 'image',
      study,
      url: '/files/full.webp',
      thumbnail_url: '/files/thumb.webp',
      content_type: 'image/webp',
      width: 1024,
      height: 768,
      createdAt: '2026-03-05T10:00:00.000Z',
      patient_uid: '0b6f2f7e-2222-4a2b-8c3d-000000000003',
      first_name: 'Paula',
      last_name: 'Patient',
      uploadedBy_title: 'Dr.',
      uploadedBy_first_name: 'Ada',
      uploadedBy_last_name: 'Lane',
      authors: [],
    },
  });
}

function renderView(body: unknown) {
  const { fetchStub } = stubFetch([200, body]);
  vi.stubGlobal('fetch', fetchStub);
  renderPage(<ImageViewPage />, {
    path: '/imageview',
    url: `/imageview?image=${UID}`,
    auth: { user: PHYSICIAN },
  });
}

describe('ImageViewPage header', () => {
  it("shows a study's facts instead of its preview's pixels", async () => {
    renderView(
      itemOf({
        study_instance_uid: '1.2.3',
        study_date: null,
        study_description: '',
        modalities: ['MR'],
        series_count: 1,
        instance_count: 1,
        patient_name_in_file: 'PATIENT^PAULA',
        patient_birth_date_in_file: null,
      }),
    );
    expect(await screen.findByRole('heading', { name: 'Paula Patient' })).toBeInTheDocument();
    expect(screen.getByText('Study')).toHaveClass('badge');
    expect(screen.getByText('MR')).toBeInTheDocument();
    expect(screen.getByText('1 series · 1 instance')).toBeInTheDocument();
    expect(screen.queryByText(/pixels/)).not.toBeInTheDocument();
  });

  it("keeps an image's size and no study badge", async () => {
    renderView(itemOf(null));
    expect(await screen.findByText(/· 1024 × 768 pixels$/)).toBeInTheDocument();
    expect(screen.queryByText('Study')).not.toBeInTheDocument();
  });
});
