import { Link } from 'react-router';
import type { KeyImage, KeyImageView } from '@ra/shared';
import { keyImageLabel, keyImagePath } from '../key-image-link';

/** A note's key images as links that open the viewer on each, with its window. */
export function KeyImageLinks({
  itemUid,
  keyImages,
  onRemove,
}: {
  itemUid: string;
  keyImages: readonly (KeyImage | KeyImageView)[];
  /** Offered while the author edits their note. */
  onRemove?: (keyImage: KeyImage) => void;
}) {
  if (keyImages.length === 0) {
    return null;
  }
  return (
    <ul className="list-unstyled small mb-1" aria-label="Key images">
      {keyImages.map((keyImage, index) => (
        <li
          key={`${keyImage.sop_instance_uid}/${keyImage.frame}`}
          className="d-flex align-items-center gap-2"
        >
          <Link to={keyImagePath(itemUid, keyImage)}>{keyImageLabel(index, keyImage)}</Link>
          {onRemove && (
            <button
              type="button"
              className="btn btn-link btn-sm p-0 text-danger"
              onClick={() => onRemove(keyImage)}
              aria-label={`Remove key image ${index + 1}`}
            >
              Remove
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
