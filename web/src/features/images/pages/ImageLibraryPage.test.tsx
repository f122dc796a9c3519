import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { imagePageSchema, meSchema } from '@ra/shared';
import { renderPage, stubFetch } from '../../../test/render-page';
import { ImageLibraryPage } from './ImageLibraryPage';

const PATIENT = meSchema.parse({
  uid: '0b6f2f7e-2222-4a2b-8c3d-000000000003',
  email: 'paula@example.com',
  displayName: 'Paula Patient',
  role: 'Patient',
  email_verified: true,
  mfa_enabled: false,
});

const ITEM = {
  patient_uid: '0b6f2f7e-2222-4a2b-8c3d-000000000003',
  first_name: 'Paula',
  last_name: 'Patient',
  uploadedBy_title: 'Dr.',
  uploadedBy_first_name: 'Ada',
  uploadedBy_last_name: 'Lane',
  authors: [],
  content_type: 'image/webp',
  width: 512,
  height: 512,
};

const PAGE = imagePageSchema.parse({
  images: [
    {
      ...ITEM,
      uid: '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b01',
      kind: 'study',
      study: {
        study_instance_uid: '1.2.840.113619.2.55.3',
        study_date: '2026-03-04',
        study_description: 'CT chest with contrast',
        modalities: ['CT', 'MR'],
        series_count: 2,
        instance_count: 312,
        patient_name_in_file: 'PATIENT^PAULA',
        patient_birth_date_in_file: '1990-03-04',
      },
      url: '/files/preview-full.webp',
      thumbnail_url: null,
      createdAt: '2026-03-05T10:00:00.000Z',
    },
    {
      ...ITEM,
      uid: '7c1e4a52-1111-4d43-9d55-0a4f6f0a4b02',
      kind: 'image',
      study: null,
      url: '/files/chest.png',
      thumbnail_url: '/files/chest-thumb.webp',
      createdAt: '2026-03-01T10:00:00.000Z',
    },
  ],
  next_cursor: null,
});

describe('ImageLibraryPage', () => {
  it("shows a study's badge, modalities, description, date and counts, and its preview being prepared", async () => {
    const { fetchStub, calls } = stubFetch([200, PAGE]);
    vi.stubGlobal('fetch', fetchStub);
    renderPage(<ImageLibraryPage />, { path: '/imagelibrary', auth: { user: PATIENT } });

    const rows = (await screen.findAllByRole('row')).slice(1);
    expect(rows).toHaveLength(2);
    const study = within(rows[0]!);
    expect(study.getByText('Study')).toHaveClass('badge');
    expect(study.getByText('CT, MR')).toBeInTheDocument();
    expect(study.getByText('CT chest with contrast')).toBeInTheDocument();
    expect(study.getByText('3/4/26 · 2 series · 312 instances')).toBeInTheDocument();
    expect(study.getByRole('img', { name: /preview being prepared/ })).toHaveTextContent(
      'Preparing preview…',
    );

    const image = within(rows[1]!);
    expect(image.queryByText('Study')).not.toBeInTheDocument();
    expect(image.getByRole('img', { name: /^Image uploaded/ })).toHaveAttribute(
      'src',
      '/files/chest-thumb.webp',
    );
    expect(calls[0]!.url).toBe(`/api/user/${PATIENT.uid}/images?limit=50`);
  });
});
