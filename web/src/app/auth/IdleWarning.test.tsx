import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { meSchema } from '@ra/shared';
import { stubFetch } from '../../test/render-page';
import { IdleWarning } from './IdleWarning';

const ME = meSchema.parse({
  uid: '4b0a2b52-5d3c-4d43-9d55-0a4f6f0a4b11',
  email: 'doctor@example.com',
  displayName: 'Dr. Ada Lane',
  role: 'Physician',
  email_verified: true,
  mfa_enabled: false,
});

/** Moves the clock on by `ms`, one check interval at a time, as the browser would. */
function pass(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

describe('IdleWarning', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    window.localStorage.clear();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('warns a minute before the idle limit and signs out when it passes', () => {
    const onExpired = vi.fn();
    render(<IdleWarning idleTimeoutSeconds={5 * 60} onExpired={onExpired} />);
    pass(3 * 60_000);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    pass(60_000 + 1_000);
    expect(screen.getByRole('dialog', { name: 'Are you still there?' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('you will be signed out in 59 seconds');
    expect(onExpired).not.toHaveBeenCalled();
    pass(60_000);
    expect(onExpired).toHaveBeenCalled();
  });

  it('"Stay signed in" tells the server and starts the count again', async () => {
    const { fetchStub, calls } = stubFetch([200, ME]);
    vi.stubGlobal('fetch', fetchStub);
    const onExpired = vi.fn();
    render(<IdleWarning idleTimeoutSeconds={5 * 60} onExpired={onExpired} />);
    pass(4 * 60_000 + 5_000);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
      await Promise.resolve();
    });
    expect(calls.map((call) => call.url)).toEqual(['/api/user/me']);
    pass(3 * 60_000);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(onExpired).not.toHaveBeenCalled();
  });

  it('counts the person typing as activity', () => {
    const { fetchStub } = stubFetch([200, ME], [200, ME], [200, ME], [200, ME]);
    vi.stubGlobal('fetch', fetchStub);
    const onExpired = vi.fn();
    render(<IdleWarning idleTimeoutSeconds={5 * 60} onExpired={onExpired} />);
    for (let minute = 0; minute < 8; minute += 1) {
      pass(60_000);
      fireEvent.keyDown(window, { key: 'a' });
    }
    expect(onExpired).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
