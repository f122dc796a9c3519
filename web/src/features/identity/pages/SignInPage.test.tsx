import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { renderPage } from '../../../test/render-page';
import { SignInPage } from './SignInPage';

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  if (email) {
    await user.type(screen.getByLabelText('Email'), email);
  }
  if (password) {
    await user.type(screen.getByLabelText('Password'), password);
  }
  await user.click(screen.getByRole('button', { name: 'Log In' }));
}

describe('SignInPage', () => {
  it('shows the portal of the role in the address, Patient by default', () => {
    renderPage(<SignInPage />, { path: '/signin', url: '/signin?role=radiologist' });
    expect(screen.getByRole('heading', { name: 'Radiologist Login' })).toBeInTheDocument();
  });

  it('asks for the email and the password before calling the server', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    renderPage(<SignInPage />, { path: '/signin' });
    expect(screen.getByRole('heading', { name: 'Patient Login' })).toBeInTheDocument();
    await fillAndSubmit('', '');
    expect(await screen.findByText('Email address is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('signs in without asking the portal first, so no answer tells whether an address has an account', async () => {
    const fetchSpy = vi.fn();
    vi.stubGlobal('fetch', fetchSpy);
    const signIn = vi.fn(() =>
      Promise.reject(new ApiError(403, 'Unable to login through this portal', { error: 'x' })),
    );
    renderPage(<SignInPage />, { path: '/signin', url: '/signin?role=Physician', auth: { signIn } });
    await fillAndSubmit(' Someone@Example.com ', 'secret password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to login through this portal');
    expect(signIn).toHaveBeenCalledWith('someone@example.com', 'secret password', 'Physician');
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('links to the other portals, keeping where the user was going', async () => {
    const { router } = renderPage(<SignInPage />, { path: '/signin', url: '/signin' });
    const portals = screen.getByRole('navigation', { name: 'Other portals' });
    expect(portals).toHaveTextContent('Not a patient? Sign in as Physician or Radiologist.');
    await userEvent.setup().click(screen.getByRole('link', { name: 'Radiologist' }));
    expect(await screen.findByRole('heading', { name: 'Radiologist Login' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?role=Radiologist');
    expect(screen.getByRole('navigation', { name: 'Other portals' })).toHaveTextContent(
      'Not a radiologist? Sign in as Patient or Physician.',
    );
  });

  it('shows the wrong-password message on a 401', async () => {
    const signIn = vi.fn(() =>
      Promise.reject(new ApiError(401, 'The email or password is incorrect', { error: 'x' })),
    );
    renderPage(<SignInPage />, { path: '/signin', auth: { signIn } });
    await fillAndSubmit('patient@example.com', 'wrong password');
    expect(await screen.findByRole('alert')).toHaveTextContent('The email or password is incorrect');
    expect(signIn).toHaveBeenCalledWith('patient@example.com', 'wrong password', 'Patient');
  });

  it('shows "Something went wrong" for other failures', async () => {
    const signIn = vi.fn(() => Promise.reject(new ApiError(500, 'Something went wrong.', {})));
    renderPage(<SignInPage />, { path: '/signin', auth: { signIn } });
    await fillAndSubmit('patient@example.com', 'any password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
  });

  it('goes to the dashboard after signing in', async () => {
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
    const { router } = renderPage(<SignInPage />, { path: '/signin', auth: { signIn } });
    await fillAndSubmit('patient@example.com', 'right password');
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it('asks for the two-factor code after the password, refuses a wrong one, then goes to the dashboard', async () => {
    const signIn = vi.fn(() => Promise.resolve({ mfaToken: 'challenge-token' }));
    const completeSignIn = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(401, 'The code is incorrect.', { error: 'The code is incorrect.' }))
      .mockResolvedValueOnce({
        uid: 'u',
        email: 'e',
        displayName: 'd',
        role: 'Physician' as const,
        email_verified: true,
        mfa_enabled: true,
      });
    const user = userEvent.setup();
    const { router } = renderPage(<SignInPage />, {
      path: '/signin',
      auth: { signIn, completeSignIn },
    });
    await fillAndSubmit('doctor@example.com', 'right password');
    const code = await screen.findByLabelText('Authentication code');
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is incorrect.')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Authentication code'), '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Dashboard page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(completeSignIn).toHaveBeenLastCalledWith({ mfa_token: 'challenge-token', code: '123 456' });
  });
});
