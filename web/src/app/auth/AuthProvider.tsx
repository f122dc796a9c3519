import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  TOKEN_REFRESH_MS,
  type AuthResponse,
  type Me,
  type MfaVerifyBody,
  type RoleName,
  type SigninResponse,
} from '@ra/shared';
import { apiRequest, setAccessToken, setRefreshHandler } from '../../lib/api-client';
import { PageSpinner } from '../../components/PageSpinner';
import { PATHS } from '../../lib/paths';
import { AuthContext, type AuthState, type SignInResult } from './auth-context';
import { IdleWarning } from './IdleWarning';

/** Runs `task` while no other tab of this origin runs one under the same lock. */
function inTurn<T>(task: () => Promise<T>): Promise<T> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  return locks ? (locks.request('ra-session-refresh', task) as Promise<T>) : task();
}

/**
 * Knows who is signed in. Nothing renders until the first refresh has answered; the access token
 * stays in memory and is renewed every 55 minutes and after a 401.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<Me | null>(null);
  const [idleTimeout, setIdleTimeout] = useState<number | null>(null);
  const [isKnown, setIsKnown] = useState(false);
  const pendingRefresh = useRef<Promise<boolean> | null>(null);

  const accept = useCallback((auth: AuthResponse) => {
    setAccessToken(auth.token);
    setUser(auth.user);
    setIdleTimeout(auth.idleTimeout);
  }, []);

  const refresh = useCallback((): Promise<boolean> => {
    // Parallel 401s share one refresh call, and tabs take turns: each refresh rotates the cookie.
    pendingRefresh.current ??= inTurn(() =>
      apiRequest<AuthResponse>('/api/auth/refresh', { method: 'POST', auth: false, keepalive: true }),
    )
      .then((auth) => {
        accept(auth);
        return true;
      })
      .catch(() => {
        setAccessToken(null);
        setUser(null);
        return false;
      })
      .finally(() => {
        pendingRefresh.current = null;
      });
    return pendingRefresh.current;
  }, [accept]);

  useEffect(() => {
    setRefreshHandler(refresh);
    void refresh().finally(() => setIsKnown(true));
    return () => setRefreshHandler(null);
  }, [refresh]);

  useEffect(() => {
    if (!user) {
      return undefined;
    }
    const timer = window.setInterval(() => void refresh(), TOKEN_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [user, refresh]);

  const signIn = useCallback(
    async (email: string, password: string, role?: RoleName): Promise<SignInResult> => {
      const answer = await apiRequest<SigninResponse>('/api/auth/signin', {
        method: 'POST',
        body: { email, password, role },
        auth: false,
      });
      if ('mfa_required' in answer) {
        return { mfaToken: answer.mfa_token };
      }
      accept(answer);
      return { user: answer.user };
    },
    [accept],
  );

  const completeSignIn = useCallback(
    async (body: MfaVerifyBody) => {
      const auth = await apiRequest<AuthResponse>('/api/auth/mfa/verify', {
        method: 'POST',
        body,
        auth: false,
      });
      accept(auth);
      return auth.user;
    },
    [accept],
  );

  const signOut = useCallback(
    async (reason?: 'idle') => {
      try {
        await apiRequest('/api/auth/signout', { method: 'POST', auth: false });
      } finally {
        setAccessToken(null);
        queryClient.clear();
        window.location.assign(reason === 'idle' ? `${PATHS.signIn}?reason=idle` : '/');
      }
    },
    [queryClient],
  );
  const handleIdle = useCallback(() => void signOut('idle'), [signOut]);

  // The session cookie outlives an email change, so a refresh answers with the updated user.
  const value = useMemo<AuthState>(
    () => ({ user, signIn, completeSignIn, signOut, reloadUser: refresh }),
    [user, signIn, completeSignIn, signOut, refresh],
  );

  if (!isKnown) {
    return <PageSpinner label="Loading…" />;
  }
  return (
    <AuthContext.Provider value={value}>
      {children}
      {user && idleTimeout !== null && (
        <IdleWarning idleTimeoutSeconds={idleTimeout} onExpired={handleIdle} />
      )}
    </AuthContext.Provider>
  );
}
