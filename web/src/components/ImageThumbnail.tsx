import Spinner from 'react-bootstrap/Spinner';
import type { Image } from '@ra/shared';

/** An image's thumbnail (at most 200×200), or a placeholder while the server is still making it. */
export function ImageThumbnail({ image, alt }: { image: Image; alt: string }) {
  if (!image.thumbnail_url) {
    return (
      <div className="thumbnail-placeholder" role="img" aria-label={`${alt} (preview being prepared)`}>
        <Spinner animation="border" size="sm" aria-hidden="true" />
      </div>
    );
  }
  return <img src={image.thumbnail_url} alt={alt} className="thumbnail" loading="lazy" />;
}
