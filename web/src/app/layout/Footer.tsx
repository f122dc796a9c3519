import Container from 'react-bootstrap/Container';
import { Link } from 'react-router';
import { PATHS } from '../../lib/paths';

export function Footer() {
  return (
    <footer className="site-footer text-white mt-auto py-4">
      <Container>
        <h2 className="h5">About Us</h2>
        <p className="mb-3">
          Radiology Archive keeps your medical images and your physician&apos;s notes in one safe place, so
          you can see your own health information whenever you need it, ask a radiologist for a second
          opinion, and take charge of your healthcare decisions.
        </p>
        <nav aria-label="Company" className="d-flex flex-wrap gap-3 mb-3">
          <Link to={PATHS.work} className="link-light">
            Work with Us
          </Link>
          <Link to={PATHS.contact} className="link-light">
            Contact Us
          </Link>
        </nav>
        <p className="small mb-0">© {new Date().getFullYear()} Radiology Archive. All rights reserved.</p>
      </Container>
    </footer>
  );
}
