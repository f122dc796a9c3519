import { PATHS } from '@ra/shared';

export { imageViewPath, PATHS } from '@ra/shared';

/** Pages shown without the navigation bar. */
export const BARE_PATHS: readonly string[] = [PATHS.signIn, PATHS.signUp, PATHS.resetPassword];
