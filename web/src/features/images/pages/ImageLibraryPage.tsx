import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Container from 'react-bootstrap/Container';
import Table from 'react-bootstrap/Table';
import { displayName } from '@ra/shared';
import { useAuth } from '../../../app/auth/auth-context';
import { ImageThumbnail } from '../../../components/ImageThumbnail';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { StudyFacts } from '../../../components/StudyFacts';
import { formatDateTime } from '../../../lib/dates';
import { imageViewPath, PATHS } from '../../../lib/paths';
import { usePatientImages } from '../../../lib/api/patient-images';
import { preloadViewerOf, usePreloadItemPage } from '../../../viewer/viewer-code';

export function ImageLibraryPage() {
  const { user } = useAuth();
  const isPatient = user?.role === 'Patient';
  const images = usePatientImages(user?.uid, { enabled: isPatient });
  const rows = images.data?.pages.flatMap((page) => page.images) ?? [];
  usePreloadItemPage(rows);
  return (
    <Container className="py-5">
      <p className="text-body-secondary mb-1">Medical Image Center</p>
      <h1 className="mb-4">Your Medical Images</h1>
      {!isPatient && <Alert variant="info">The image library lists a patient’s own images.</Alert>}
      {isPatient && images.isPending && <PageSpinner label="Loading your images…" />}
      {isPatient && images.isError && (
        <Alert variant="danger">Your images could not be loaded. Please reload the page.</Alert>
      )}
      {isPatient && images.isSuccess && rows.length === 0 && <p>You have no images yet.</p>}
      {rows.length > 0 && (
        <Table responsive hover className="align-middle">
          <thead>
            <tr>
              <th scope="col">Physician</th>
              <th scope="col">Upload Date</th>
              <th scope="col">Image</th>
              <th scope="col">
                <span className="visually-hidden">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((image) => (
              <tr key={image.uid}>
                <td>
                  {displayName({
                    title: image.uploadedBy_title,
                    first_name: image.uploadedBy_first_name,
                    last_name: image.uploadedBy_last_name,
                  })}
                </td>
                <td>{formatDateTime(image.createdAt)}</td>
                <td>
                  <ImageThumbnail image={image} alt={`Image uploaded ${formatDateTime(image.createdAt)}`} />
                  {image.study && <StudyFacts study={image.study} className="mt-1" />}
                </td>
                <td>
                  <LinkButton to={imageViewPath(image.uid)} size="sm" onIntent={() => preloadViewerOf(image)}>
                    View
                  </LinkButton>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      {images.hasNextPage && (
        <Button
          variant="outline-secondary"
          onClick={() => void images.fetchNextPage()}
          disabled={images.isFetchingNextPage}
        >
          Load more images
        </Button>
      )}
      <div className="mt-4">
        <LinkButton to={PATHS.dashboard} variant="outline-secondary">
          Back to Dashboard
        </LinkButton>
      </div>
    </Container>
  );
}
