import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { useToasts, type ToastMessage } from './toast-context';
import { TOAST_DELAY_MS, ToastProvider } from './ToastProvider';

function ShowButton({ toast }: { toast: ToastMessage }) {
  const toasts = useToasts();
  return (
    <button type="button" onClick={() => toasts.show(toast)}>
      Show
    </button>
  );
}

function renderWith(toast: ToastMessage) {
  const router = createMemoryRouter(
    [
      {
        path: '/',
        element: (
          <ToastProvider>
            <ShowButton toast={toast} />
          </ToastProvider>
        ),
      },
      { path: '/made', element: <p>What was made</p> },
    ],
    { initialEntries: ['/'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => vi.useRealTimers());

describe('ToastProvider', () => {
  it('announces a success politely with a link to what was made, and lets it go by itself', () => {
    vi.useFakeTimers();
    renderWith({
      variant: 'success',
      message: 'Image uploaded successfully!',
      link: { to: '/made', label: 'View the image' },
    });
    void act(() => screen.getByRole('button', { name: 'Show' }).click());
    const toast = screen.getByRole('status');
    expect(toast).toHaveTextContent('Image uploaded successfully! View the image');
    expect(toast).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByRole('link', { name: 'View the image' })).toHaveAttribute('href', '/made');
    void act(() => vi.advanceTimersByTime(TOAST_DELAY_MS - 1));
    expect(screen.getByRole('status')).toBeInTheDocument();
    void act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('keeps an error until it is dismissed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderWith({ variant: 'danger', message: 'Error updating note' });
    const user = userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
    await user.click(screen.getByRole('button', { name: 'Show' }));
    void act(() => vi.advanceTimersByTime(TOAST_DELAY_MS * 3));
    expect(screen.getByRole('alert')).toHaveTextContent('Error updating note');
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('follows its link and goes away', async () => {
    const router = renderWith({
      variant: 'success',
      message: 'Filed.',
      link: { to: '/made', label: 'View the study' },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Show' }));
    await user.click(screen.getByRole('link', { name: 'View the study' }));
    expect(router.state.location.pathname).toBe('/made');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });
});
