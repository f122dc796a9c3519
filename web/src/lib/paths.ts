/** Every route of the web app, in one place. */
export const PATHS = {
  home: '/',
  signUp: '/signup',
  signIn: '/signin',
  resetPassword: '/reset-password',
  dashboard: '/dashboard',
  patients: '/patients',
  addPatient: '/addpatient',
  upload: '/upload',
  imageLibrary: '/imagelibrary',
  imageView: '/imageview',
  invoices: '/invoices',
  secondOpinion: '/secondopinion',
  notifications: '/notifications',
  profile: '/profile',
  contact: '/contact',
  work: '/work',
} as const;

/** Pages shown without the navigation bar. */
export const BARE_PATHS: readonly string[] = [PATHS.signIn, PATHS.signUp, PATHS.resetPassword];
