import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';

export function ContactPage() {
  return (
    <Container className="py-5">
      <h1 className="mb-4">Contact Us</h1>
      <Row className="g-4">
        <Col md={6}>
          <h2 className="h4">Support</h2>
          <p>
            Questions about your account, an invoice or an image? Our support team answers by email, usually
            within one working day.
          </p>
          <p>
            Email: <a href="mailto:support@radiology-archive.example">support@radiology-archive.example</a>
            <br />
            Phone: +1 (555) 010-4200
          </p>
          <p className="small text-body-secondary">
            For medical emergencies, call your local emergency number; we cannot give urgent medical advice.
          </p>
        </Col>
        <Col md={6}>
          <h2 className="h4">Support hours</h2>
          <ul className="list-unstyled">
            <li>Monday to Friday: 9:00 AM to 6:00 PM</li>
            <li>Saturday: 10:00 AM to 4:00 PM</li>
            <li>Sunday: Closed</li>
          </ul>
        </Col>
      </Row>
    </Container>
  );
}
