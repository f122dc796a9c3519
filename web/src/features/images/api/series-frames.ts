import { useQuery } from '@tanstack/react-query';
import { DICOM_TAGS, firstValue } from '@ra/shared';
import { dicomwebPath, fetchDicomJson, integerValue } from './dicomweb';

/** One picture of a series: a single-frame instance, or one frame of a multi-frame one. */
export interface SeriesFrame {
  key: string;
  /** WADO-RS rendered resource for this picture. */
  renderedPath: string;
  /** Width over height when the service gives Rows and Columns, to hold the space before it loads. */
  aspectRatio: number | null;
}

/** The pictures of a series in the service's order (instance number), a multi-frame instance's frame by frame. */
export async function listSeriesFrames(
  studyUid: string,
  seriesUid: string,
  signal?: AbortSignal,
): Promise<SeriesFrame[]> {
  const series = dicomwebPath(studyUid, seriesUid);
  const datasets = await fetchDicomJson(`${series}/instances`, signal);
  return datasets.flatMap((dataset) => {
    const sopUid = firstValue(dataset, DICOM_TAGS.sopInstanceUid);
    if (sopUid === '') {
      return [];
    }
    const instance = `${series}/instances/${encodeURIComponent(sopUid)}`;
    const frameCount = integerValue(dataset, DICOM_TAGS.numberOfFrames) ?? 1;
    const rows = integerValue(dataset, DICOM_TAGS.rows);
    const columns = integerValue(dataset, DICOM_TAGS.columns);
    const aspectRatio = rows && columns ? columns / rows : null;
    if (frameCount <= 1) {
      return [{ key: sopUid, renderedPath: `${instance}/rendered`, aspectRatio }];
    }
    return Array.from({ length: frameCount }, (_, index) => ({
      key: `${sopUid}/${index + 1}`,
      renderedPath: `${instance}/frames/${index + 1}/rendered`,
      aspectRatio,
    }));
  });
}

export function useSeriesFrames(studyUid: string, seriesUid: string) {
  return useQuery({
    queryKey: ['dicomweb', 'frames', studyUid, seriesUid],
    queryFn: ({ signal }) => listSeriesFrames(studyUid, seriesUid, signal),
  });
}
