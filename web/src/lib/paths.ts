import { PATHS } from '@ra/shared';

export { imageViewPath, PATHS } from '@ra/shared';

/** Pages shown without the navigation bar. */
export const BARE_PATHS: readonly string[] = [PATHS.signIn, PATHS.signUp, PATHS.resetPassword];

/** Whether a page is shown without the navigation bar: those above, and share links (`/s/…`), opened without an account. */
export function isBarePath(pathname: string): boolean {
  return BARE_PATHS.includes(pathname) || pathname.startsWith('/s/');
}
