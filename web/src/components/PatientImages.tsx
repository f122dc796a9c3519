import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import type { Image, Patient } from '@ra/shared';
import { ImageThumbnail } from './ImageThumbnail';
import { PageSpinner } from './PageSpinner';
import { StudyFacts } from './StudyFacts';
import { formatDateTime } from '../lib/dates';
import { imageViewPath } from '../lib/paths';
import { usePatientImages } from '../lib/api/patient-images';
import { preloadViewerOf, usePreloadItemPage } from '../viewer/viewer-code';

function ThumbnailLink({ image }: { image: Image }) {
  return (
    <Link
      to={imageViewPath(image.uid)}
      className="thumbnail-button text-center d-block"
      onPointerEnter={() => preloadViewerOf(image)}
      onFocus={() => preloadViewerOf(image)}
    >
      <ImageThumbnail image={image} alt={`Image of ${formatDateTime(image.createdAt)}`} />
      {image.study && <StudyFacts study={image.study} className="mt-1 mx-auto" />}
    </Link>
  );
}

/** The thumbnails of one patient: the newest that came with the list, then all of them on request. */
export function PatientImages({
  patient,
  isShowingAll,
  onShowAll,
}: {
  patient: Patient;
  isShowingAll: boolean;
  onShowAll: () => void;
}) {
  const all = usePatientImages(patient.uid, { enabled: isShowingAll });
  const images = isShowingAll && all.data ? all.data.pages.flatMap((page) => page.images) : patient.images;
  usePreloadItemPage(images);
  if (patient.image_count === 0) {
    return <p className="text-body-secondary mb-0">No images yet.</p>;
  }
  return (
    <>
      <div className="thumbnail-grid">
        {images.map((image) => (
          <ThumbnailLink key={image.uid} image={image} />
        ))}
      </div>
      {isShowingAll && all.isPending && <PageSpinner label="Loading images…" />}
      {isShowingAll && all.isError && <Alert variant="warning">The images could not be loaded.</Alert>}
      {!isShowingAll && patient.image_count > images.length && (
        <Button variant="link" className="px-0" onClick={onShowAll}>
          Show all {patient.image_count} images
        </Button>
      )}
      {isShowingAll && all.hasNextPage && (
        <Button
          variant="link"
          className="px-0"
          onClick={() => void all.fetchNextPage()}
          disabled={all.isFetchingNextPage}
        >
          Load more
        </Button>
      )}
    </>
  );
}
