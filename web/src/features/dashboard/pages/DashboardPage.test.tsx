import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { meSchema } from '@ra/shared';
import { renderPage } from '../../../test/render-page';
import { DashboardPage } from './DashboardPage';

const PHYSICIAN = meSchema.parse({
  uid: '4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b11',
  email: 'doctor@example.com',
  displayName: 'Dr. Ada Lane',
  role: 'Physician',
  email_verified: true,
  mfa_enabled: false,
});

describe('DashboardPage', () => {
  it('gives a physician four cards, Incoming Studies among them', () => {
    renderPage(<DashboardPage />, { path: '/', auth: { user: PHYSICIAN } });
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual([
      'View Patient List',
      'Add Patient',
      'Upload Image',
      'Incoming Studies',
    ]);
    expect(
      screen.getByText('Studies sent to you by other systems, to file under your patients.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Incoming Studies' })).toHaveAttribute('href', '/incoming');
  });

  it('offers a patient the download of their whole archive; staff get no such button', () => {
    const patient = meSchema.parse({ ...PHYSICIAN, role: 'Patient', displayName: 'Pat One' });
    renderPage(<DashboardPage />, { path: '/', auth: { user: patient } });
    expect(screen.getByRole('heading', { level: 2, name: 'Your Whole Archive' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download my archive' })).toBeEnabled();
  });

  it('gives staff no archive download', () => {
    renderPage(<DashboardPage />, { path: '/', auth: { user: PHYSICIAN } });
    expect(screen.queryByRole('button', { name: 'Download my archive' })).toBeNull();
  });
});
