import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderPage, stubFetch } from '../../../test/render-page';
import { SignUpPage } from './SignUpPage';

const HOSPITALS = {
  hospitals: [{ uid: '6f1c2d9e-1111-4a2b-8c3d-000000000001', name: "St. John's Hospital" }],
};

async function fillPatient(user: ReturnType<typeof userEvent.setup>) {
  await user.selectOptions(screen.getByLabelText('Title'), 'Ms.');
  await user.type(screen.getByLabelText('First name'), 'Paula');
  await user.type(screen.getByLabelText('Last name'), 'Patient');
  await user.selectOptions(screen.getByLabelText('Month'), 'March');
  await user.type(screen.getByLabelText('Day'), '4');
  await user.type(screen.getByLabelText('Year'), '1990');
  await user.type(screen.getByLabelText('Email'), '  Paula@Example.COM ');
  await user.type(screen.getByLabelText('Password'), 'long enough');
}

describe('SignUpPage', () => {
  it('shows every field message for an empty form', async () => {
    vi.stubGlobal('fetch', stubFetch([200, HOSPITALS]).fetchStub);
    const user = userEvent.setup();
    renderPage(<SignUpPage />, { path: '/signup' });
    await user.selectOptions(screen.getByLabelText('Role'), 'Physician');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    for (const message of [
      'Hospital is required for physicians',
      'First name is required',
      'Last name is required',
      'Month is required',
      'Day is required',
      'Year is required',
      'Email address must be valid',
      'Password must be at least 8 characters long',
    ]) {
      expect(await screen.findByText(message)).toBeInTheDocument();
    }
  });

  it('checks the year has 4 characters and the email its form', async () => {
    vi.stubGlobal('fetch', vi.fn());
    const user = userEvent.setup();
    renderPage(<SignUpPage />, { path: '/signup' });
    await user.type(screen.getByLabelText('Year'), '90');
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Year must be 4 digits')).toBeInTheDocument();
    expect(screen.getByText('Email address must be valid')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 8 characters long')).toBeInTheDocument();
  });

  it('shows the first server message when the server refuses', async () => {
    vi.stubGlobal(
      'fetch',
      stubFetch([409, { success: false, msg: 'This email is already in use.' }]).fetchStub,
    );
    const user = userEvent.setup();
    renderPage(<SignUpPage />, { path: '/signup' });
    await fillPatient(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This email is already in use.');
  });

  it('sends the padded date and the trimmed, lower-cased email, signs in, and tells a patient what to do next', async () => {
    const { fetchStub, calls } = stubFetch([201, { msg: 'Successfully created new user' }]);
    vi.stubGlobal('fetch', fetchStub);
    const signIn = vi.fn(() =>
      Promise.resolve({
        user: {
          uid: 'u',
          email: 'e',
          displayName: 'd',
          role: 'Patient' as const,
          email_verified: true,
          mfa_enabled: false,
        },
      }),
    );
    const user = userEvent.setup();
    renderPage(<SignUpPage />, { path: '/signup', auth: { signIn } });
    await fillPatient(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    expect(calls[0]).toEqual({
      url: '/api/auth/signup',
      body: {
        role: 'PATIENT',
        title: 'Ms.',
        first_name: 'Paula',
        last_name: 'Patient',
        dob: '1990-03-04',
        email: 'paula@example.com',
        password: 'long enough',
      },
    });
    expect(signIn).toHaveBeenCalledWith('paula@example.com', 'long enough');
    expect(screen.getByRole('status')).toHaveTextContent(
      'Share your account email with your physician to get started.',
    );
  });

  it('says the email or password is incorrect when the automatic sign-in fails', async () => {
    vi.stubGlobal('fetch', stubFetch([201, { msg: 'Successfully created new user' }]).fetchStub);
    const signIn = vi.fn(() => Promise.reject(new Error('401')));
    const user = userEvent.setup();
    renderPage(<SignUpPage />, { path: '/signup', auth: { signIn } });
    await fillPatient(user);
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The email or password is incorrect');
  });

  it('lists the hospitals for a physician', async () => {
    vi.stubGlobal('fetch', stubFetch([200, HOSPITALS]).fetchStub);
    const user = userEvent.setup();
    renderPage(<SignUpPage />, { path: '/signup' });
    expect(screen.queryByLabelText('Hospital')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Role'), 'Physician');
    const hospital = await screen.findByLabelText('Hospital');
    expect(await within(hospital).findByRole('option', { name: "St. John's Hospital" })).toBeInTheDocument();
  });
});
