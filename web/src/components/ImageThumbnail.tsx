import Spinner from 'react-bootstrap/Spinner';
import type { Image } from '@ra/shared';

/**
 * An archive item's thumbnail (at most 200×200; a study's preview), or a placeholder while the
 * server is still making it.
 */
export function ImageThumbnail({ image, alt }: { image: Image; alt: string }) {
  if (!image.thumbnail_url) {
    return (
      <div className="thumbnail-placeholder" role="img" aria-label={`${alt} (preview being prepared)`}>
        <Spinner animation="border" size="sm" aria-hidden="true" />
        <span className="small mt-2">Preparing preview…</span>
      </div>
    );
  }
  return <img src={image.thumbnail_url} alt={alt} className="thumbnail" loading="lazy" />;
}
