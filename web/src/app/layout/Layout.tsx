import { Outlet, useLocation } from 'react-router';
import { BARE_PATHS } from '../../lib/paths';
import { Footer } from './Footer';
import { NavBar } from './NavBar';

export function Layout() {
  const { pathname } = useLocation();
  return (
    <div className="d-flex flex-column min-vh-100">
      {!BARE_PATHS.includes(pathname) && <NavBar />}
      <main className="flex-grow-1">
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
