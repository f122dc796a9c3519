import { useState } from 'react';
import type { Image } from '@ra/shared';

/** An archive item's full image (a study's preview) on a dark stage, fitted or at full resolution. */
export function ImageStage({ image }: { image: Image }) {
  const [isZoomed, setIsZoomed] = useState(false);
  return (
    <div className="image-stage rounded">
      <button
        type="button"
        className="thumbnail-button"
        onClick={() => setIsZoomed((zoomed) => !zoomed)}
        aria-pressed={isZoomed}
        aria-label={isZoomed ? 'Fit the image to the screen' : 'Show the image at full resolution'}
      >
        <img
          src={image.url}
          alt={`Medical image of ${image.first_name} ${image.last_name}`}
          className={`image-full${isZoomed ? ' is-zoomed' : ''}`}
        />
      </button>
    </div>
  );
}
