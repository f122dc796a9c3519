import Alert from 'react-bootstrap/Alert';
import Container from 'react-bootstrap/Container';
import { useSearchParams } from 'react-router';
import { LinkButton } from '../../../components/LinkButton';
import { PageSpinner } from '../../../components/PageSpinner';
import { ApiError } from '../../../lib/api-client';
import { PATHS } from '../../../lib/paths';
import { useImage } from '../api/image';
import { ItemView } from '../components/ItemView';

export function ImageViewPage() {
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
  return <ItemView key={image.data.uid} data={image.data} />;
}
