import Container from 'react-bootstrap/Container';
import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';

export function NotFoundPage() {
  return (
    <Container className="py-5">
      <h1 className="h3">There is nothing on this page.</h1>
      <Link to={PATHS.home}>Go to the home page</Link>
    </Container>
  );
}
