import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { PATHS } from '../lib/paths';
import { useAuth } from './auth/auth-context';

/** Sends a signed-out visitor to sign in, and back here afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const location = useLocation();
  if (!user) {
    return <Navigate to={PATHS.signIn} replace state={{ from: `${location.pathname}${location.search}` }} />;
  }
  return children;
}
