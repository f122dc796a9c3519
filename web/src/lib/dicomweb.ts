import { queryOptions } from '@tanstack/react-query';
import { checkDicomJsonList, firstValue, SHARE_ACCESS_CODE_HEADER, type DicomJsonDataset } from '@ra/shared';
import { apiBlob, apiRequest, ApiError } from './api-client';

/**
 * Where the page's DICOMweb requests go and what they carry: the signed-in user's `/dicomweb` with
 * their bearer token, or a share link's root (`/api/s/<token>/dicomweb`) with its access code and
 * no token. The viewer, the study page's queries and Cornerstone's image loader all read it.
 */
export interface DicomwebAccess {
  root: string;
  /** Headers every DICOMweb request carries (a share link's `X-Access-Code`). */
  headers: Record<string, string>;
  /**
   * A share link: the viewer reads the study only. Nothing is saved (measurements stay on the page)
   * and nothing of the archive's own API is asked for (annotations, reports, priors).
   */
  isShared: boolean;
}

const SIGNED_IN: DicomwebAccess = { root: '/dicomweb', headers: {}, isShared: false };
let access: DicomwebAccess = SIGNED_IN;

export function dicomwebAccess(): DicomwebAccess {
  return access;
}

/** Points the page's DICOMweb at a share link; the returned function points it back. */
export function pointDicomwebAtShare(root: string, accessCode: string | null): () => void {
  access = {
    root,
    headers: accessCode ? { [SHARE_ACCESS_CODE_HEADER]: accessCode } : {},
    isShared: true,
  };
  return () => {
    access = SIGNED_IN;
  };
}

/** Where the server's DICOMweb service (PS3.18) answers for a study, or for one series of it. */
export function dicomwebPath(studyUid: string, seriesUid?: string): string {
  const study = `${access.root}/studies/${encodeURIComponent(studyUid)}`;
  return seriesUid === undefined ? study : `${study}/series/${encodeURIComponent(seriesUid)}`;
}

/** A QIDO-RS or metadata answer, checked to be DICOM JSON (as the shared schema would, without copying it). */
export async function fetchDicomJson(path: string, signal?: AbortSignal): Promise<DicomJsonDataset[]> {
  const body = await apiRequest<unknown>(path, {
    accept: 'application/dicom+json',
    signal,
    headers: access.headers,
    auth: !access.isShared,
  });
  return checkDicomJsonList(body);
}

/**
 * A rendered image or thumbnail as JPEG. A 200 that is not an image (a page where no service
 * answers) fails here rather than as a broken picture.
 */
export async function fetchDicomImage(path: string, signal?: AbortSignal): Promise<Blob> {
  const blob = await apiBlob(path, {
    accept: 'image/jpeg',
    signal,
    headers: access.headers,
    auth: !access.isShared,
  });
  if (!blob.type.startsWith('image/')) {
    throw new Error(`${path} did not answer with an image`);
  }
  return blob;
}

/**
 * A series' metadata (WADO-RS, every instance's attributes): fetched by the study page as soon as a
 * series may be opened, and read by the viewer from the same cache.
 */
export function seriesMetadataQuery(studyUid: string, seriesUid: string) {
  return queryOptions({
    queryKey: ['dicomweb', 'metadata', studyUid, seriesUid],
    queryFn: ({ signal }) => fetchDicomJson(`${dicomwebPath(studyUid, seriesUid)}/metadata`, signal),
    staleTime: 5 * 60_000,
  });
}

/** An integer attribute (IS, US…), which DICOM JSON may give as a number or a string; null when absent. */
export function integerValue(dataset: DicomJsonDataset, tag: string): number | null {
  const text = firstValue(dataset, tag).trim();
  const value = Number(text);
  return text !== '' && Number.isInteger(value) ? value : null;
}

/** What the user may not see, or what does not exist (a series with no image has no thumbnail). */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
