import { createBrowserRouter } from 'react-router';
import { PATHS } from '../lib/paths';
import { Layout } from './layout/Layout';
import { LandingPage } from '../features/landing/pages/LandingPage';
import { SignInPage } from '../features/identity/pages/SignInPage';
import { SignUpPage } from '../features/identity/pages/SignUpPage';
import { ResetPasswordPage } from '../features/identity/pages/ResetPasswordPage';
import { DashboardPage } from '../features/dashboard/pages/DashboardPage';
import { ContactPage } from '../features/info/pages/ContactPage';
import { WorkPage } from '../features/info/pages/WorkPage';
import { NotFoundPage } from '../features/info/pages/NotFoundPage';

/** Every page of the app. Pages for signed-in users wrap their element in <RequireAuth>. */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: PATHS.home, element: <LandingPage /> },
      { path: PATHS.signIn, element: <SignInPage /> },
      { path: PATHS.signUp, element: <SignUpPage /> },
      { path: PATHS.resetPassword, element: <ResetPasswordPage /> },
      { path: PATHS.dashboard, element: <DashboardPage /> },
      { path: PATHS.contact, element: <ContactPage /> },
      { path: PATHS.work, element: <WorkPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
