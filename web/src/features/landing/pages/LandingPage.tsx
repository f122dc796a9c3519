import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import { LinkButton } from '../../../components/LinkButton';
import { displayName } from '@ra/shared';
import { PageSpinner } from '../../../components/PageSpinner';
import { ProfilePicture } from '../../../components/ProfilePicture';
import { PATHS } from '../../../lib/paths';
import { useMeetOurRadiologists } from '../api/meet-radiologists';

export function LandingPage() {
  const radiologists = useMeetOurRadiologists();
  return (
    <>
      <section className="hero py-5">
        <Container className="py-md-4">
          <h1 className="display-5 fw-semibold mb-3">Get your medical scan interpreted today.</h1>
          <p className="lead mb-4">
            See your images and your physician&apos;s notes in one place, and ask an experienced radiologist
            for a second opinion.
          </p>
          <LinkButton to={PATHS.signUp} size="lg">
            Sign Up
          </LinkButton>
        </Container>
      </section>
      <section className="py-5" aria-labelledby="meet-heading">
        <Container>
          <h2 id="meet-heading" className="mb-4">
            Meet Our Radiologists!
          </h2>
          {radiologists.isPending && <PageSpinner label="Loading radiologists…" />}
          {radiologists.isError && (
            <Alert variant="warning">The radiologists could not be loaded. Please try again later.</Alert>
          )}
          {radiologists.data?.length === 0 && <p>Our radiologists will be introduced here soon.</p>}
          <Row xs={1} sm={2} lg={3} className="g-4">
            {radiologists.data?.map((radiologist) => (
              <Col key={radiologist.uid}>
                <Card className="h-100 text-center shadow-sm">
                  <Card.Body>
                    <ProfilePicture url={radiologist.profile_image_url} className="rounded-circle mb-3" />
                    <Card.Title as="h3" className="h5">
                      {displayName(radiologist)}
                    </Card.Title>
                    <Card.Text>Specialization: {radiologist.expertise}</Card.Text>
                  </Card.Body>
                </Card>
              </Col>
            ))}
          </Row>
          <div className="mt-4">
            <LinkButton to={PATHS.secondOpinion} variant="outline-primary">
              View Radiologists
            </LinkButton>
          </div>
        </Container>
      </section>
    </>
  );
}
