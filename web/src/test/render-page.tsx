import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { AuthContext, type AuthState } from '../app/auth/auth-context';
import { ToastProvider } from '../components/toasts/ToastProvider';

/** Renders one page in a memory router with a signed-out auth state the test controls. */
export function renderPage(
  element: ReactElement,
  options: { path: string; url?: string; auth?: Partial<AuthState> },
) {
  const auth: AuthState = {
    user: null,
    signIn: () => Promise.reject(new Error('signIn not expected')),
    completeSignIn: () => Promise.reject(new Error('completeSignIn not expected')),
    signOut: () => Promise.resolve(),
    reloadUser: () => Promise.resolve(false),
    ...options.auth,
  };
  const router = createMemoryRouter(
    [
      {
        // As in the app's layout: toasts outlive the page that showed them.
        element: (
          <ToastProvider>
            <Outlet />
          </ToastProvider>
        ),
        children: [
          { path: options.path, element },
          { path: '/dashboard', element: <p>Dashboard page</p> },
        ],
      },
    ],
    { initialEntries: [options.url ?? options.path] },
  );
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <AuthContext.Provider value={auth}>
        <RouterProvider router={router} />
      </AuthContext.Provider>
    </QueryClientProvider>,
  );
  return { router };
}

/** A fetch stub answering each call with the next of `responses` (status and JSON body), and recording calls. */
export function stubFetch(...responses: [number, unknown][]) {
  const calls: { url: string; body: unknown }[] = [];
  const queue = [...responses];
  const fetchStub = (input: string, init?: RequestInit) => {
    const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ url: input, body: sent });
    const next = queue.shift();
    if (!next) {
      return Promise.reject(new Error(`unexpected fetch ${input}`));
    }
    const [status, body] = next;
    return Promise.resolve(new Response(body === undefined ? null : JSON.stringify(body), { status }));
  };
  return { fetchStub, calls };
}
