import { Outlet, useLocation } from 'react-router';
import { BARE_PATHS } from '../../lib/paths';
import { Footer } from './Footer';
import { NavBar } from './NavBar';
import { ConfirmEmailBanner } from '../../features/identity/components/ConfirmEmailBanner';

export function Layout() {
  const { pathname } = useLocation();
  return (
    <div className="d-flex flex-column min-vh-100">
      {!BARE_PATHS.includes(pathname) && <NavBar />}
      {!BARE_PATHS.includes(pathname) && <ConfirmEmailBanner />}
      <main className="flex-grow-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
