import { useQuery } from '@tanstack/react-query';
import { DICOM_TAGS, firstValue } from '@ra/shared';
import { dicomwebPath, fetchDicomJson, integerValue } from '../../../lib/dicomweb';

export interface SeriesSummary {
  uid: string;
  modality: string;
  /** Null when the files give none. */
  number: number | null;
  description: string;
  /** Null when the service does not say. */
  instanceCount: number | null;
}

/** The series of a study (QIDO-RS), in the service's order: by series number. */
export async function listStudySeries(studyUid: string, signal?: AbortSignal): Promise<SeriesSummary[]> {
  const datasets = await fetchDicomJson(`${dicomwebPath(studyUid)}/series`, signal);
  return datasets
    .map((dataset) => ({
      uid: firstValue(dataset, DICOM_TAGS.seriesInstanceUid),
      modality: firstValue(dataset, DICOM_TAGS.modality),
      number: integerValue(dataset, DICOM_TAGS.seriesNumber),
      description: firstValue(dataset, DICOM_TAGS.seriesDescription),
      instanceCount: integerValue(dataset, DICOM_TAGS.numberOfSeriesRelatedInstances),
    }))
    .filter((series) => series.uid !== '');
}

export function useStudySeries(studyUid: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: ['dicomweb', 'series', studyUid],
    queryFn: ({ signal }) => listStudySeries(studyUid, signal),
    enabled: options.enabled !== false,
  });
}

/** The series holding an instance of the study (QIDO-RS); null when the study has no such instance. */
export async function findSeriesOfInstance(
  studyUid: string,
  sopInstanceUid: string,
  signal?: AbortSignal,
): Promise<string | null> {
  const query = new URLSearchParams({
    SOPInstanceUID: sopInstanceUid,
    includefield: DICOM_TAGS.seriesInstanceUid,
  });
  const [dataset] = await fetchDicomJson(`${dicomwebPath(studyUid)}/instances?${query.toString()}`, signal);
  return (dataset && firstValue(dataset, DICOM_TAGS.seriesInstanceUid)) || null;
}

/** The series of a key image, when a page opens on one. */
export function useSeriesOfInstance(studyUid: string, sopInstanceUid: string | undefined) {
  return useQuery({
    queryKey: ['dicomweb', 'series-of-instance', studyUid, sopInstanceUid],
    queryFn: ({ signal }) => findSeriesOfInstance(studyUid, sopInstanceUid!, signal),
    enabled: sopInstanceUid !== undefined,
    staleTime: Infinity,
  });
}
