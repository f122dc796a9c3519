/** Every route of the web app; the server uses them too, for the links in notifications and emails. */
export const PATHS = {
  home: '/',
  signUp: '/signup',
  signIn: '/signin',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  twoFactor: '/two-factor',
  accessHistory: '/access-history',
  incoming: '/incoming',
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
  /** The caller's share links. */
  shares: '/shares',
  /** A share link, opened without an account (`/s/<token>`). */
  sharedLink: '/s/:token',
} as const;

/** The image view of one image; a reload or a shared link opens the same image. */
export function imageViewPath(imageId: string): string {
  return `${PATHS.imageView}?image=${imageId}`;
}
