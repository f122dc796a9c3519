import Alert from 'react-bootstrap/Alert';
import Card from 'react-bootstrap/Card';
import Container from 'react-bootstrap/Container';
import { useSearchParams } from 'react-router';
import { useAuth } from '../../../app/auth/auth-context';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { StudyFacts } from '../../../components/StudyFacts';
import { ApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/dates';
import { PATHS } from '../../../lib/paths';
import { useImage } from '../api/image';
import { ImageNotes } from '../components/ImageNotes';
import { ImageStage } from '../components/ImageStage';
import { NoteEditor } from '../components/NoteEditor';
import { PatientInFiles } from '../components/PatientInFiles';
import { RasterImageViewer } from '../components/RasterImageViewer';
import { RateRadiologist } from '../components/RateRadiologist';
import { StudyViewer } from '../components/StudyViewer';

export function ImageViewPage() {
  const { user } = useAuth();
  const [params] = useSearchParams();
  const uid = params.get('image');
  const image = useImage(uid);

  if (!uid) {
    return (
      <Container className="py-5">
        <Alert variant="warning">No image was chosen. Open one from your image list.</Alert>
      </Container>
    );
  }
  if (image.isPending) {
    return <PageSpinner label="Loading the image…" />;
  }
  if (image.isError) {
    const isMissing = image.error instanceof ApiError && image.error.status === 404;
    return (
      <Container className="py-5">
        <Alert variant={isMissing ? 'warning' : 'danger'}>
          {isMissing ? 'This image does not exist or you may not see it.' : 'The image could not be loaded.'}
        </Alert>
        <LinkButton to={PATHS.dashboard} variant="outline-secondary">
          Back to Dashboard
        </LinkButton>
      </Container>
    );
  }
  const data = image.data;
  const ownNote = data.authors.find((author) => author.uid === user?.uid)?.note ?? '';
  return (
    <Container className="py-5">
      <h1 className="mb-1">
        {data.first_name} {data.last_name}
      </h1>
      <p className={data.study ? 'text-body-secondary mb-1' : 'text-body-secondary'}>
        Uploaded {formatDateTime(data.createdAt)}
        {/* A study's width and height are its preview's, which say nothing of the study. */}
        {!data.study && ` · ${data.width} × ${data.height} pixels`}
      </p>
      {data.study && (
        <>
          <StudyFacts study={data.study} isCompact={false} className="mb-2" />
          <PatientInFiles study={data.study} className="mb-3" />
          <StudyViewer
            key={data.uid}
            itemUid={data.uid}
            study={data.study}
            patientName={`${data.first_name} ${data.last_name}`}
          >
            <ImageStage image={data} />
          </StudyViewer>
        </>
      )}
      {!data.study && (
        <RasterImageViewer key={data.uid} image={data}>
          <ImageStage image={data} />
        </RasterImageViewer>
      )}
      <ImageNotes authors={data.authors} />
      {user?.role === 'Physician' && (
        <NoteEditor key={data.uid} imageUid={data.uid} initialNote={ownNote} submitLabel="Save Note" />
      )}
      {user?.role === 'Radiologist' && (
        <NoteEditor key={data.uid} imageUid={data.uid} initialNote={ownNote} submitLabel="Submit Analysis" />
      )}
      {user?.role === 'Patient' && (
        <Card className="mt-4">
          <Card.Body>
            <Card.Title as="h2" className="h5">
              Want a Second Opinion?
            </Card.Title>
            <Card.Text>
              A radiologist of your choice can review this image and write their opinion here.
            </Card.Text>
            <LinkButton to={PATHS.secondOpinion}>Get a Second Opinion</LinkButton>
          </Card.Body>
        </Card>
      )}
      {user?.role === 'Patient' && (
        <RateRadiologist radiologists={data.authors.filter((author) => author.role === 'RADIOLOGIST')} />
      )}
      <div className="mt-4">
        <LinkButton
          to={user?.role === 'Patient' ? PATHS.imageLibrary : PATHS.patients}
          variant="outline-secondary"
        >
          Back
        </LinkButton>
      </div>
    </Container>
  );
}
