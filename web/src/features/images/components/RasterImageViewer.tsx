import { Component, Suspense, type ReactNode } from 'react';
import type { Image } from '@ra/shared';
import { formatShortDate } from '../../../lib/dates';
import { RasterViewer } from '../../../viewer/viewer-code';

/** What stands in when the viewer's code cannot be fetched (offline, a new deployment): the picture. */
class ViewerCodeBoundary extends Component<
  { fallback: ReactNode; children: ReactNode },
  { isFailed: boolean }
> {
  override state = { isFailed: false };

  static getDerivedStateFromError() {
    return { isFailed: true };
  }

  override render() {
    return this.state.isFailed ? this.props.fallback : this.props.children;
  }
}

/**
 * A raster item (JPEG, PNG) in the diagnostic viewer; `children` (the plain picture) stands in
 * while the viewer's code loads, or if it cannot.
 */
export function RasterImageViewer({ image, children }: { image: Image; children: ReactNode }) {
  return (
    <ViewerCodeBoundary fallback={children}>
      <Suspense fallback={children}>
        <RasterViewer
          itemUid={image.uid}
          url={image.url}
          facts={{
            patientName: `${image.first_name} ${image.last_name}`,
            studyDate: formatShortDate(image.createdAt.slice(0, 10)),
            studyDescription: 'Uploaded image',
            seriesTitle: `${image.width} × ${image.height} px`,
          }}
        />
      </Suspense>
    </ViewerCodeBoundary>
  );
}
