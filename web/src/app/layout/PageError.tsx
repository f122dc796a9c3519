import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';

/**
 * Shown in the layout in place of a page that failed: most often its code could not be fetched
 * (the connection dropped, or a new version replaced the files), which a reload fixes.
 */
export function PageError() {
  return (
    <Container className="py-5">
      <Alert variant="danger" role="alert">
        <Alert.Heading as="h1" className="h4">
          This page could not be shown.
        </Alert.Heading>
        <p>Check your connection, then reload the page.</p>
        <Button variant="outline-danger" onClick={() => window.location.reload()}>
          Reload the page
        </Button>
      </Alert>
    </Container>
  );
}
