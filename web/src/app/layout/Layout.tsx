import { Suspense, useLayoutEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { isBarePath } from '../../lib/paths';
import { PageSpinner } from '../../components/PageSpinner';
import { ToastProvider } from '../../components/toasts/ToastProvider';
import { ConfirmEmailBanner } from '../../features/identity/components/ConfirmEmailBanner';
import { showAppInPlaceOfPrerenderedPage } from '../prerendered-page';
import { AccountMenu } from './AccountMenu';
import { NavBar } from './NavBar';
import { PageFrame } from './PageFrame';

/** Rendered with the page, so the app replaces a prerendered copy only once it shows a page. */
function PageShown() {
  useLayoutEffect(showAppInPlaceOfPrerenderedPage, []);
  return null;
}

export function Layout() {
  const { pathname } = useLocation();
  // One boundary per page: moving to a page whose code is still loading shows the spinner at once
  // (a boundary that already shows a page would keep the old page on screen instead).
  const pageId = useMatches().at(-1)?.id;
  const header = !isBarePath(pathname) && (
    <>
      <NavBar>
        <AccountMenu />
      </NavBar>
      <ConfirmEmailBanner />
    </>
  );
  return (
    <ToastProvider>
      <PageFrame header={header}>
        <Suspense key={pageId} fallback={<PageSpinner label="Loading page…" />}>
          <Outlet />
          <PageShown />
        </Suspense>
      </PageFrame>
    </ToastProvider>
  );
}
