import { createBrowserRouter, matchPath, type RouteObject } from 'react-router';
import { registerPagePreloader } from '../lib/page-preloads';
import { PATHS } from '../lib/paths';
import { Layout } from './layout/Layout';
import { PageError } from './layout/PageError';
import { lazyPage, type LazyPage } from './lazy-page';
import { RequireAuth } from './RequireAuth';

const LandingPage = lazyPage(() => import('../features/landing/pages/LandingPage'), 'LandingPage');
const SignInPage = lazyPage(() => import('../features/identity/pages/SignInPage'), 'SignInPage');
const SignUpPage = lazyPage(() => import('../features/identity/pages/SignUpPage'), 'SignUpPage');
const ResetPasswordPage = lazyPage(
  () => import('../features/identity/pages/ResetPasswordPage'),
  'ResetPasswordPage',
);
const VerifyEmailPage = lazyPage(
  () => import('../features/identity/pages/VerifyEmailPage'),
  'VerifyEmailPage',
);
const TwoFactorPage = lazyPage(() => import('../features/identity/pages/TwoFactorPage'), 'TwoFactorPage');
const DashboardPage = lazyPage(() => import('../features/dashboard/pages/DashboardPage'), 'DashboardPage');
const ContactPage = lazyPage(() => import('../features/info/pages/ContactPage'), 'ContactPage');
const WorkPage = lazyPage(() => import('../features/info/pages/WorkPage'), 'WorkPage');
const NotFoundPage = lazyPage(() => import('../features/info/pages/NotFoundPage'), 'NotFoundPage');
const AddPatientPage = lazyPage(() => import('../features/patients/pages/AddPatientPage'), 'AddPatientPage');
const PatientsPage = lazyPage(() => import('../features/patients/pages/PatientsPage'), 'PatientsPage');
const UploadPage = lazyPage(() => import('../features/images/pages/UploadPage'), 'UploadPage');
const ImageLibraryPage = lazyPage(
  () => import('../features/images/pages/ImageLibraryPage'),
  'ImageLibraryPage',
);
const ImageViewPage = lazyPage(() => import('../features/images/pages/ImageViewPage'), 'ImageViewPage');
const NotificationsPage = lazyPage(
  () => import('../features/notifications/pages/NotificationsPage'),
  'NotificationsPage',
);
const InvoicesPage = lazyPage(() => import('../features/payments/pages/InvoicesPage'), 'InvoicesPage');
const PayPage = lazyPage(() => import('../features/payments/pages/PayPage'), 'PayPage');
const SecondOpinionPage = lazyPage(
  () => import('../features/payments/pages/SecondOpinionPage'),
  'SecondOpinionPage',
);
const ProfilePage = lazyPage(() => import('../features/profile/pages/ProfilePage'), 'ProfilePage');
const AccessHistoryPage = lazyPage(
  () => import('../features/access-history/pages/AccessHistoryPage'),
  'AccessHistoryPage',
);
const SharesPage = lazyPage(() => import('../features/shares/pages/SharesPage'), 'SharesPage');
const SharedLinkPage = lazyPage(() => import('../features/images/pages/SharedLinkPage'), 'SharedLinkPage');
const IncomingPage = lazyPage(() => import('../features/incoming/pages/IncomingPage'), 'IncomingPage');

interface PageRoute {
  path: string;
  Page: LazyPage;
  /** The page needs a signed-in user; a visitor is sent to sign in first. */
  isSignedInOnly?: boolean;
}

/** Every page of the app, each loaded on first use. */
const PAGE_ROUTES: PageRoute[] = [
  { path: PATHS.home, Page: LandingPage },
  { path: PATHS.signIn, Page: SignInPage },
  { path: PATHS.signUp, Page: SignUpPage },
  { path: PATHS.resetPassword, Page: ResetPasswordPage },
  { path: PATHS.verifyEmail, Page: VerifyEmailPage },
  { path: PATHS.twoFactor, Page: TwoFactorPage, isSignedInOnly: true },
  { path: PATHS.dashboard, Page: DashboardPage },
  { path: PATHS.contact, Page: ContactPage },
  { path: PATHS.work, Page: WorkPage },
  { path: PATHS.patients, Page: PatientsPage, isSignedInOnly: true },
  { path: PATHS.addPatient, Page: AddPatientPage, isSignedInOnly: true },
  { path: PATHS.upload, Page: UploadPage, isSignedInOnly: true },
  { path: PATHS.imageLibrary, Page: ImageLibraryPage, isSignedInOnly: true },
  { path: PATHS.imageView, Page: ImageViewPage, isSignedInOnly: true },
  { path: PATHS.notifications, Page: NotificationsPage, isSignedInOnly: true },
  { path: PATHS.profile, Page: ProfilePage, isSignedInOnly: true },
  { path: PATHS.accessHistory, Page: AccessHistoryPage, isSignedInOnly: true },
  { path: PATHS.incoming, Page: IncomingPage, isSignedInOnly: true },
  { path: PATHS.shares, Page: SharesPage, isSignedInOnly: true },
  { path: PATHS.sharedLink, Page: SharedLinkPage },
  { path: PATHS.secondOpinion, Page: SecondOpinionPage },
  { path: PATHS.invoices, Page: InvoicesPage, isSignedInOnly: true },
  { path: '/pay/:uid', Page: PayPage, isSignedInOnly: true },
  { path: '*', Page: NotFoundPage },
];

function toRoute({ path, Page, isSignedInOnly }: PageRoute): RouteObject {
  return {
    path,
    element: isSignedInOnly ? (
      <RequireAuth>
        <Page />
      </RequireAuth>
    ) : (
      <Page />
    ),
    // Inside the layout: the header stays, and the visitor is told how to recover.
    errorElement: <PageError />,
  };
}

export const router = createBrowserRouter([{ element: <Layout />, children: PAGE_ROUTES.map(toRoute) }]);

registerPagePreloader((path) => {
  PAGE_ROUTES.find((route) => matchPath(route.path, path) && route.path !== '*')?.Page.preload();
});

/** Starts fetching the code of the page at the current address while the session is being checked. */
export function preloadCurrentPage(): void {
  const path = router.state.matches.at(-1)?.route.path;
  PAGE_ROUTES.find((route) => route.path === path)?.Page.preload();
}
