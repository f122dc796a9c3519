import { wadors } from '@cornerstonejs/dicom-image-loader';
import { DICOM_TAGS, firstValue } from '@ra/shared';
import { dicomwebPath, fetchDicomJson } from '../../../lib/dicomweb';
import { orderSlices, type StackSlice } from './slice-order';

export type { StackSlice };

/**
 * A series as a stack for the viewer: its metadata read once from WADO-RS (served from the
 * database), handed to the image loader so that no frame request re-reads it.
 */
export async function loadSeriesStack(
  studyUid: string,
  seriesUid: string,
  signal?: AbortSignal,
): Promise<StackSlice[]> {
  const seriesPath = dicomwebPath(studyUid, seriesUid);
  const datasets = await fetchDicomJson(`${seriesPath}/metadata`, signal);
  const root = `${window.location.origin}${seriesPath}`;
  const slices = orderSlices(
    datasets,
    (sop, frame) => `wadors:${root}/instances/${encodeURIComponent(sop)}/frames/${frame}`,
  );
  const bySop = new Map(datasets.map((dataset) => [firstValue(dataset, DICOM_TAGS.sopInstanceUid), dataset]));
  for (const slice of slices) {
    // The loader's metadata type is DICOM JSON, as WADO-RS gives it.
    wadors.metaDataManager.add(slice.imageId, bySop.get(slice.sopInstanceUid) as never);
  }
  return slices;
}
