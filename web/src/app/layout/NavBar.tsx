import type { ReactNode } from 'react';
import Container from 'react-bootstrap/Container';
import Navbar from 'react-bootstrap/Navbar';
import { Link } from 'react-router';
import { PATHS } from '../../lib/paths';

/**
 * The navigation bar: the brand, and on the right `children` (the account menu). The prerendered
 * landing page leaves the right side empty, since who is signed in is known only in the browser.
 */
export function NavBar({ children }: { children?: ReactNode }) {
  return (
    <Navbar expand="md" bg="light" className="border-bottom" as="header">
      <Container>
        <Navbar.Brand as={Link} to={PATHS.home} className="fw-semibold">
          Radiology Archive
        </Navbar.Brand>
        <Navbar.Toggle aria-controls="main-navigation" />
        <Navbar.Collapse id="main-navigation" className="justify-content-end">
          {children}
        </Navbar.Collapse>
      </Container>
    </Navbar>
  );
}
