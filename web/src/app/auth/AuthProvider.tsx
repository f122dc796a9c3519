import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { TOKEN_REFRESH_MS, type AuthResponse, type Me, type RoleName } from '@ra/shared';
import { apiRequest, setAccessToken, setRefreshHandler } from '../../lib/api-client';
import { PageSpinner } from '../../components/PageSpinner';
import { AuthContext, type AuthState } from './auth-context';

/**
 * Knows who is signed in. Nothing renders until the first refresh has answered; the access token
 * stays in memory and is renewed every 55 minutes and after a 401.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [user, setUser] = useState<Me | null>(null);
  const [isKnown, setIsKnown] = useState(false);
  const pendingRefresh = useRef<Promise<boolean> | null>(null);

  const accept = useCallback((auth: AuthResponse) => {
    setAccessToken(auth.token);
    setUser(auth.user);
  }, []);

  const refresh = useCallback((): Promise<boolean> => {
    // Parallel 401s share one refresh call.
    pendingRefresh.current ??= apiRequest<AuthResponse>('/api/auth/refresh', { method: 'POST', auth: false })
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
    async (email: string, password: string, role?: RoleName) => {
      const auth = await apiRequest<AuthResponse>('/api/auth/signin', {
        method: 'POST',
        body: { email, password, role },
        auth: false,
      });
      accept(auth);
      return auth.user;
    },
    [accept],
  );

  const signOut = useCallback(async () => {
    try {
      await apiRequest('/api/auth/signout', { method: 'POST', auth: false });
    } finally {
      setAccessToken(null);
      queryClient.clear();
      window.location.assign('/');
    }
  }, [queryClient]);

  // The session cookie outlives an email change, so a refresh answers with the updated user.
  const value = useMemo<AuthState>(
    () => ({ user, signIn, signOut, reloadUser: refresh }),
    [user, signIn, signOut, refresh],
  );

  if (!isKnown) {
    return <PageSpinner label="Loading…" />;
  }
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
