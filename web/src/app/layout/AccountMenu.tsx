import Nav from 'react-bootstrap/Nav';
import NavDropdown from 'react-bootstrap/NavDropdown';
import Navbar from 'react-bootstrap/Navbar';
import { Link } from 'react-router';
import { ROLE_NAMES } from '@ra/shared';
import { LinkButton } from '../../components/LinkButton';
import { PATHS } from '../../lib/paths';
import { ROLE_VARIANT } from '../../lib/roles';
import { NotificationBell } from '../../features/notifications/components/NotificationBell';
import { useAuth } from '../auth/auth-context';

/** The right side of the navigation bar: the signed-in user's menu, or the ways in for a visitor. */
export function AccountMenu() {
  const { user, signOut } = useAuth();
  if (!user) {
    return (
      <Nav className="align-items-md-center gap-2">
        <NavDropdown title="Log In" id="login-menu" align="end">
          {ROLE_NAMES.map((role) => (
            <NavDropdown.Item key={role} as={Link} to={`${PATHS.signIn}?role=${role}`} state={{ role }}>
              {role}
            </NavDropdown.Item>
          ))}
        </NavDropdown>
        <LinkButton to={PATHS.signUp} variant="primary">
          Sign up
        </LinkButton>
      </Nav>
    );
  }
  return (
    <Nav className="align-items-md-center gap-2">
      <Navbar.Text className={`fw-semibold text-${ROLE_VARIANT[user.role]}`}>{user.role} Portal</Navbar.Text>
      <NotificationBell />
      <NavDropdown title={user.displayName || user.email} id="user-menu" align="end">
        <NavDropdown.Item as={Link} to={PATHS.dashboard}>
          Dashboard
        </NavDropdown.Item>
        <NavDropdown.Item as={Link} to={PATHS.profile}>
          Profile
        </NavDropdown.Item>
        <NavDropdown.Item as={Link} to={PATHS.notifications}>
          Notifications
        </NavDropdown.Item>
        {user.role !== 'Radiologist' && (
          <NavDropdown.Item as={Link} to={PATHS.shares}>
            Shared links
          </NavDropdown.Item>
        )}
        <NavDropdown.Divider />
        <NavDropdown.Item as="button" onClick={() => void signOut()}>
          Log Out
        </NavDropdown.Item>
      </NavDropdown>
    </Nav>
  );
}
