/**
 * Downloads a ZIP of the archive (docs/api.md §12.4) with the bearer token, reporting the bytes
 * received as they come. The ZIP is the same bytes at every request, so when the connection drops
 * the download goes on from the last byte received (Range with If-Range) rather than from zero.
 */

import { ApiError, apiResponse } from './api-client';

export interface DownloadProgress {
  received: number;
  /** The ZIP's size, null when the server did not say it. */
  total: number | null;
}

export interface DownloadedFile {
  blob: Blob;
  filename: string;
}

/** The file name of a `Content-Disposition: attachment; filename="…"`, else `fallback`. */
export function filenameOf(disposition: string | null, fallback: string): string {
  const match = disposition ? /filename="([^"]+)"/.exec(disposition) : null;
  return match?.[1] ?? fallback;
}

/** How many times a dropped download is resumed before it is reported as failed. */
const RESUMES = 3;

export async function downloadZip(
  path: string,
  options: { onProgress?: (progress: DownloadProgress) => void; signal?: AbortSignal; fallbackName: string },
): Promise<DownloadedFile> {
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  let total: number | null = null;
  let etag: string | null = null;
  let filename = options.fallbackName;
  let resumes = 0;
  for (;;) {
    try {
      const isResuming = received > 0 && etag !== null;
      const response = await apiResponse(path, {
        accept: 'application/zip',
        signal: options.signal,
        headers: isResuming ? { range: `bytes=${received}-`, 'if-range': etag! } : {},
      });
      if (!isResuming || response.status !== 206) {
        // A first answer, or a ZIP that changed since: start again from its first byte.
        chunks.length = 0;
        received = 0;
        etag = response.headers.get('etag');
        const length = response.headers.get('content-length');
        total = length === null ? null : Number(length);
        filename = filenameOf(response.headers.get('content-disposition'), options.fallbackName);
      }
      options.onProgress?.({ received, total });
      if (!response.body) {
        throw new Error('The answer has no body.');
      }
      const reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          break;
        }
        chunks.push(value);
        received += value.byteLength;
        options.onProgress?.({ received, total });
      }
      if (total !== null && received !== total) {
        throw new Error('The download ended early.');
      }
      return { blob: new Blob(chunks, { type: 'application/zip' }), filename };
    } catch (error) {
      const isFinal =
        options.signal?.aborted === true || error instanceof ApiError || etag === null || resumes >= RESUMES;
      if (isFinal) {
        throw error;
      }
      resumes += 1;
    }
  }
}

/** Hands a downloaded file to the browser to save, through a short-lived object URL. */
export function saveFile(file: DownloadedFile): void {
  const url = URL.createObjectURL(file.blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.filename;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
