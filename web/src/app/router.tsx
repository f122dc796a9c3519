import { createBrowserRouter } from 'react-router';
import { PATHS } from '../lib/paths';
import { Layout } from './layout/Layout';
import { LandingPage } from '../features/landing/pages/LandingPage';
import { SignInPage } from '../features/identity/pages/SignInPage';
import { SignUpPage } from '../features/identity/pages/SignUpPage';
import { ResetPasswordPage } from '../features/identity/pages/ResetPasswordPage';
import { VerifyEmailPage } from '../features/identity/pages/VerifyEmailPage';
import { TwoFactorPage } from '../features/identity/pages/TwoFactorPage';
import { DashboardPage } from '../features/dashboard/pages/DashboardPage';
import { ContactPage } from '../features/info/pages/ContactPage';
import { WorkPage } from '../features/info/pages/WorkPage';
import { NotFoundPage } from '../features/info/pages/NotFoundPage';
import { AddPatientPage } from '../features/patients/pages/AddPatientPage';
import { PatientsPage } from '../features/patients/pages/PatientsPage';
import { UploadPage } from '../features/images/pages/UploadPage';
import { ImageLibraryPage } from '../features/images/pages/ImageLibraryPage';
import { ImageViewPage } from '../features/images/pages/ImageViewPage';
import { NotificationsPage } from '../features/notifications/pages/NotificationsPage';
import { InvoicesPage } from '../features/payments/pages/InvoicesPage';
import { PayPage } from '../features/payments/pages/PayPage';
import { SecondOpinionPage } from '../features/payments/pages/SecondOpinionPage';
import { ProfilePage } from '../features/profile/pages/ProfilePage';
import { AccessHistoryPage } from '../features/access-history/pages/AccessHistoryPage';
import { RequireAuth } from './RequireAuth';

/** Every page of the app. Pages for signed-in users wrap their element in <RequireAuth>. */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: PATHS.home, element: <LandingPage /> },
      { path: PATHS.signIn, element: <SignInPage /> },
      { path: PATHS.signUp, element: <SignUpPage /> },
      { path: PATHS.resetPassword, element: <ResetPasswordPage /> },
      { path: PATHS.verifyEmail, element: <VerifyEmailPage /> },
      {
        path: PATHS.twoFactor,
        element: (
          <RequireAuth>
            <TwoFactorPage />
          </RequireAuth>
        ),
      },
      { path: PATHS.dashboard, element: <DashboardPage /> },
      { path: PATHS.contact, element: <ContactPage /> },
      { path: PATHS.work, element: <WorkPage /> },
      {
        path: PATHS.patients,
        element: (
          <RequireAuth>
            <PatientsPage />
          </RequireAuth>
        ),
      },
      {
        path: PATHS.addPatient,
        element: (
          <RequireAuth>
            <AddPatientPage />
          </RequireAuth>
        ),
      },
      {
        path: PATHS.upload,
        element: (
          <RequireAuth>
            <UploadPage />
          </RequireAuth>
        ),
      },
      {
        path: PATHS.imageLibrary,
        element: (
          <RequireAuth>
            <ImageLibraryPage />
          </RequireAuth>
        ),
      },
      {
        path: PATHS.imageView,
        element: (
          <RequireAuth>
            <ImageViewPage />
          </RequireAuth>
        ),
      },
      {
        path: PATHS.notifications,
        element: (
          <RequireAuth>
            <NotificationsPage />
          </RequireAuth>
        ),
      },
      {
        path: PATHS.profile,
        element: (
          <RequireAuth>
            <ProfilePage />
          </RequireAuth>
        ),
      },
      {
        path: PATHS.accessHistory,
        element: (
          <RequireAuth>
            <AccessHistoryPage />
          </RequireAuth>
        ),
      },
      { path: PATHS.secondOpinion, element: <SecondOpinionPage /> },
      {
        path: PATHS.invoices,
        element: (
          <RequireAuth>
            <InvoicesPage />
          </RequireAuth>
        ),
      },
      {
        path: '/pay/:uid',
        element: (
          <RequireAuth>
            <PayPage />
          </RequireAuth>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
