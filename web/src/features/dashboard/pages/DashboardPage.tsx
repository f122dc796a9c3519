import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Container from 'react-bootstrap/Container';
import Row from 'react-bootstrap/Row';
import { LinkButton } from '../../../components/LinkButton';
import { Navigate } from 'react-router';
import { DOWNLOAD_PATHS, type RoleName } from '@ra/shared';
import { DownloadButton } from '../../../components/DownloadButton';
import { useAuth } from '../../../app/auth/auth-context';
import { PATHS } from '../../../lib/paths';
import { ROLE_VARIANT } from '../../../lib/roles';
import { WorklistSection } from '../components/WorklistSection';

interface DashboardCard {
  title: string;
  text: string;
  to: string;
}

const CARDS: Record<RoleName, DashboardCard[]> = {
  Physician: [
    { title: 'View Patient List', text: 'See your patients and their images.', to: PATHS.patients },
    { title: 'Add Patient', text: 'Add an existing patient or invite a new one.', to: PATHS.addPatient },
    { title: 'Upload Image', text: 'Upload an image with your notes for a patient.', to: PATHS.upload },
    {
      title: 'Incoming Studies',
      text: 'Studies sent to you by other systems, to file under your patients.',
      to: PATHS.incoming,
    },
  ],
  Patient: [
    { title: 'View Medical Images', text: 'Your images and your physician’s notes.', to: PATHS.imageLibrary },
    { title: 'Invoice History', text: 'Your second-opinion invoices and payments.', to: PATHS.invoices },
    {
      title: 'Get Second Opinion',
      text: 'Ask a radiologist of your choice to review an image.',
      to: PATHS.secondOpinion,
    },
    { title: 'Access History', text: 'See who has viewed your records.', to: PATHS.accessHistory },
  ],
  Radiologist: [
    { title: 'View Patients', text: 'The patients who asked for your opinion.', to: PATHS.patients },
    { title: 'View Notifications', text: 'New requests and updates.', to: PATHS.notifications },
    { title: 'View Profile', text: 'Your bio, picture and rating preference.', to: PATHS.profile },
  ],
};

export function DashboardPage() {
  const { user } = useAuth();
  if (!user) {
    return <Navigate to={PATHS.home} replace />;
  }
  const cards = CARDS[user.role];
  return (
    <Container className="py-5">
      <h1 className="mb-4">Welcome, {user.displayName || user.email}!</h1>
      {user.role === 'Radiologist' && <WorklistSection />}
      {/* Four cards sit two by two on medium screens rather than three and one. */}
      <Row xs={1} md={cards.length === 4 ? 2 : 3} xl={cards.length} className="g-4">
        {cards.map((card) => (
          <Col key={card.title}>
            <Card className="h-100 shadow-sm">
              <Card.Body className="d-flex flex-column">
                <Card.Title as="h2" className="h5">
                  {card.title}
                </Card.Title>
                <Card.Text className="flex-grow-1">{card.text}</Card.Text>
                <LinkButton to={card.to} variant={ROLE_VARIANT[user.role]}>
                  {card.title}
                </LinkButton>
              </Card.Body>
            </Card>
          </Col>
        ))}
      </Row>
      {user.role === 'Patient' && (
        <Card className="mt-4 shadow-sm">
          <Card.Body>
            <Card.Title as="h2" className="h5">
              Your Whole Archive
            </Card.Title>
            <Card.Text>
              Every image and study with its notes and analyses, as one ZIP file with a page to read them and
              a DICOMDIR that DICOM viewers open.
            </Card.Text>
            <DownloadButton
              path={DOWNLOAD_PATHS.archive}
              label="Download my archive"
              fallbackName="radiology-archive.zip"
              variant={ROLE_VARIANT.Patient}
            />
          </Card.Body>
        </Card>
      )}
    </Container>
  );
}
