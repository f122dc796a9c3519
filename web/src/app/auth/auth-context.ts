import { createContext, useContext } from 'react';
import type { Me, MfaVerifyBody, RoleName } from '@ra/shared';

/** A finished sign-in, or the token that a two-factor code must complete. */
export type SignInResult = { user: Me } | { mfaToken: string };

export interface AuthState {
  /** Null when signed out. */
  user: Me | null;
  signIn: (email: string, password: string, role?: RoleName) => Promise<SignInResult>;
  /** The second step of a two-factor sign-in: a code from the app or a recovery code. */
  completeSignIn: (body: MfaVerifyBody) => Promise<Me>;
  /** `idle` when the session ended for inactivity: the sign-in page then says so. */
  signOut: (reason?: 'idle') => Promise<void>;
  /** Fetches the signed-in user again (after an email change, say); false when the session is gone. */
  reloadUser: () => Promise<boolean>;
}

export const AuthContext = createContext<AuthState | null>(null);

export function useAuth(): AuthState {
  const auth = useContext(AuthContext);
  if (!auth) {
    throw new Error('useAuth must be used inside <AuthProvider>');
  }
  return auth;
}
