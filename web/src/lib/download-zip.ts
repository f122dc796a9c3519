/**
 * Downloads a ZIP of the archive (docs/api.md §12.4) with the bearer token, reporting the bytes
 * received as they come. The ZIP is the same bytes at every request, so when the connection drops
 * the download goes on from the last byte received (Range with If-Range) rather than from zero.
 * Where the browser lets a page write a file the user chose (Chromium's File System Access), the
 * bytes go straight to disk; elsewhere they are gathered in a Blob the browser then saves.
 */

import { ApiError, apiResponse } from './api-client';

export interface DownloadProgress {
  received: number;
  /** The ZIP's size, null when the server did not say it. */
  total: number | null;
}

/** Where the bytes go as they arrive. */
export interface DownloadSink {
  write(chunk: Uint8Array): Promise<void>;
  /** Forgets what was written: the server sent the ZIP again from its first byte. */
  restart(): Promise<void>;
  /** Every byte arrived; `filename` is the server's name for the file. */
  finish(filename: string): Promise<void>;
  /** The download failed or was cancelled. */
  abort(): Promise<void>;
}

/** The file name of a `Content-Disposition: attachment; filename="…"`, else `fallback`. */
export function filenameOf(disposition: string | null, fallback: string): string {
  const match = disposition ? /filename="([^"]+)"/.exec(disposition) : null;
  return match?.[1] ?? fallback;
}

/** A ZIP asked for without the signed-in user's token (`auth: false`), or with further headers. */
export interface ZipRequest {
  auth?: boolean;
  headers?: Record<string, string>;
}

/** How many times a dropped download is resumed before it is reported as failed. */
const RESUMES = 3;

export async function downloadZip(
  path: string,
  sink: DownloadSink,
  options: {
    onProgress?: (progress: DownloadProgress) => void;
    signal?: AbortSignal;
    fallbackName: string;
    /** How to ask: a share link's ZIP goes without the bearer token, with its access code. */
    request?: ZipRequest;
  },
): Promise<void> {
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
        auth: options.request?.auth,
        headers: {
          ...options.request?.headers,
          ...(isResuming && etag !== null ? { range: `bytes=${received}-`, 'if-range': etag } : {}),
        },
      });
      if (!isResuming || response.status !== 206) {
        // A first answer, or a ZIP that changed since: start again from its first byte.
        if (received > 0) {
          await sink.restart();
        }
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
        await sink.write(value);
        received += value.byteLength;
        options.onProgress?.({ received, total });
      }
      if (total !== null && received !== total) {
        throw new Error('The download ended early.');
      }
      await sink.finish(filename);
      return;
    } catch (error) {
      const isFinal =
        options.signal?.aborted === true || error instanceof ApiError || etag === null || resumes >= RESUMES;
      if (isFinal) {
        await sink.abort();
        throw error;
      }
      resumes += 1;
    }
  }
}

/** Gathers the bytes in memory, then hands the file to the browser to save through a short-lived object URL. */
export function memorySink(): DownloadSink {
  let chunks: Uint8Array[] = [];
  return {
    write: (chunk) => {
      chunks.push(chunk);
      return Promise.resolve();
    },
    restart: () => {
      chunks = [];
      return Promise.resolve();
    },
    finish: (filename) => {
      const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: 'application/zip' }));
      chunks = [];
      const link = document.createElement('a');
      link.href = url;
      link.download = filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      return Promise.resolve();
    },
    abort: () => {
      chunks = [];
      return Promise.resolve();
    },
  };
}

/** The part of Chromium's File System Access API a disk sink uses. */
interface WritableFile {
  write(
    data: Uint8Array | { type: 'truncate'; size: number } | { type: 'seek'; position: number },
  ): Promise<void>;
  close(): Promise<void>;
  abort(): Promise<void>;
}
type SaveFilePicker = (options: {
  suggestedName: string;
  types: { description: string; accept: Record<string, string[]> }[];
}) => Promise<{ createWritable(): Promise<WritableFile> }>;

/**
 * A sink writing to a file the user chooses now (it must be asked in the click itself), or null
 * where the browser cannot; rejects with an AbortError when the user closes the dialog.
 */
export async function diskSink(suggestedName: string): Promise<DownloadSink | null> {
  const picker = (window as unknown as { showSaveFilePicker?: SaveFilePicker }).showSaveFilePicker;
  if (!picker) {
    return null;
  }
  const handle = await picker({
    suggestedName,
    types: [{ description: 'ZIP archive', accept: { 'application/zip': ['.zip'] } }],
  });
  const file = await handle.createWritable();
  return {
    write: (chunk) => file.write(chunk),
    restart: async () => {
      await file.write({ type: 'truncate', size: 0 });
      await file.write({ type: 'seek', position: 0 });
    },
    finish: () => file.close(),
    // A partial file is not left behind under the chosen name.
    abort: () => file.abort().catch(() => undefined),
  };
}
