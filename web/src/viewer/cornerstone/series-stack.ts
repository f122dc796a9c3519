import { wadors } from '@cornerstonejs/dicom-image-loader';
import { DICOM_TAGS, firstValue, type DicomJsonDataset } from '@ra/shared';
import { dicomwebPath } from '../../lib/dicomweb';
import { markMeasuredAtDetector, measurableDataset } from './pixel-spacing';
import { orderSlices, type StackSlice } from './slice-order';

export type { StackSlice };

/**
 * A series as a stack for the viewer: its metadata (read once from WADO-RS, served from the
 * database) handed to the image loader, so that no frame request re-reads it.
 */
export function registerSeriesStack(
  studyUid: string,
  seriesUid: string,
  datasets: DicomJsonDataset[],
): StackSlice[] {
  const root = `${window.location.origin}${dicomwebPath(studyUid, seriesUid)}`;
  const slices = orderSlices(
    datasets,
    (sop, frame) => `wadors:${root}/instances/${encodeURIComponent(sop)}/frames/${frame}`,
  );
  const bySop = new Map(datasets.map((dataset) => [firstValue(dataset, DICOM_TAGS.sopInstanceUid), dataset]));
  for (const slice of slices) {
    if (slice.spacing === 'imager') {
      markMeasuredAtDetector(slice.imageId);
    }
    // The loader's metadata type is DICOM JSON, as WADO-RS gives it.
    wadors.metaDataManager.add(slice.imageId, measurableDataset(bySop.get(slice.sopInstanceUid)!) as never);
  }
  return slices;
}
