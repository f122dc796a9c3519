import * as tus from 'tus-js-client';
import { MAX_CHUNK_BYTES, RESUMABLE_THRESHOLD_BYTES, type UploadPurpose } from '@ra/shared';

/** The states of docs/architecture.md §12.1; `pausing` and `canceling` are shown as `running`. */
export type UploadTaskState =
  'running' | 'pausing' | 'paused' | 'canceling' | 'success' | 'canceled' | 'error';
export type UploadTaskStatus = 'running' | 'paused' | 'success' | 'canceled' | 'error';

export function statusOf(state: UploadTaskState): UploadTaskStatus {
  switch (state) {
    case 'pausing':
    case 'canceling':
      return 'running';
    default:
      return state;
  }
}

/** Waits doubling from 1 s, for about two minutes in all, before an error is shown. */
export const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 16_000, 32_000, 64_000];
/** Chunks double after each success while they stay below 32 MiB. */
export const LARGEST_CHUNK_BYTES = MAX_CHUNK_BYTES / 2;

export interface UploadSnapshot {
  state: UploadTaskState;
  bytesSent: number;
  bytesTotal: number;
  /** The finished upload's URL, to send to the API. */
  url: string | null;
  error: string | null;
  isResumed: boolean;
}

export interface UploadTaskOptions {
  purpose: UploadPurpose;
  getToken: () => string | null;
  refreshToken: () => Promise<boolean>;
  endpoint?: string;
  /**
   * The file's path within a chosen folder, sent as its name and kept in its resume fingerprint:
   * files on a CD share names, sizes and dates across folders, and must not resume each other.
   */
  name?: string;
  /**
   * Bytes of the first request (then doubling as usual); by default RESUMABLE_THRESHOLD_BYTES. The
   * files of a folder are mostly a few hundred KiB: each in one request costs the browser and the
   * server half the work, and the batch remembers finished files across reloads anyway.
   */
  firstChunkBytes?: number;
}

/**
 * tus-js-client's reader, except that the file's size is asked once and a read of the whole file
 * gives the File itself: Chromium asks the disk again for the size of a chosen file, and for every
 * slice made of it, which for a folder of hundreds of small files cost more than sending them.
 */
const wholeFileReader = {
  openFile: (file: File) => {
    const size = file.size;
    return Promise.resolve({
      size,
      slice: (start: number, end: number) =>
        Promise.resolve({
          value: start === 0 && end >= size ? file : file.slice(start, end),
          done: end >= size,
        }),
      close: () => undefined,
    });
  },
};

function messageOf(error: Error): string {
  const response = (error as tus.DetailedError).originalResponse;
  const body = response?.getBody();
  try {
    const parsed = body ? (JSON.parse(body) as { errors?: { msg?: string }[]; error?: string }) : undefined;
    const message = parsed?.errors?.[0]?.msg ?? parsed?.error;
    if (message) {
      return message;
    }
  } catch {
    // Not JSON: fall through to the general message.
  }
  return 'The upload failed. Check your connection and try again.';
}

/**
 * One resumable file upload over tus, with the states and transitions of
 * docs/architecture.md §12.1. Pause only from running; resume from paused or pausing; cancel from
 * running or pausing.
 */
export class UploadTask {
  private snapshot: UploadSnapshot;
  private readonly listeners = new Set<(snapshot: UploadSnapshot) => void>();
  private readonly upload: tus.Upload;

  constructor(
    private readonly file: File,
    options: UploadTaskOptions,
  ) {
    this.snapshot = {
      state: 'running',
      bytesSent: 0,
      bytesTotal: file.size,
      url: null,
      error: null,
      isResumed: false,
    };
    const isResumable = file.size > RESUMABLE_THRESHOLD_BYTES;
    const name = options.name;
    this.upload = new tus.Upload(file, {
      endpoint: options.endpoint ?? '/api/uploads',
      metadata: { filename: name ?? file.name, filetype: file.type, purpose: options.purpose },
      ...(name && {
        fingerprint: (_file, tusOptions) =>
          Promise.resolve(
            ['ra', options.purpose, name, file.type, file.size, file.lastModified, tusOptions.endpoint].join(
              '-',
            ),
          ),
      }),
      chunkSize: isResumable
        ? Math.max(RESUMABLE_THRESHOLD_BYTES, options.firstChunkBytes ?? 0)
        : Number.POSITIVE_INFINITY,
      fileReader: wholeFileReader,
      // The first chunk rides on the request that creates the upload (tus creation-with-upload).
      uploadDataDuringCreation: true,
      retryDelays: RETRY_DELAYS_MS,
      storeFingerprintForResuming: isResumable,
      removeFingerprintOnSuccess: true,
      onBeforeRequest: (request) => {
        const token = options.getToken();
        if (token) {
          request.setHeader('Authorization', `Bearer ${token}`);
        }
      },
      onShouldRetry: (error, _attempt, tusOptions) => {
        const status = error.originalResponse?.getStatus() ?? 0;
        if (status === 401) {
          void options.refreshToken();
          return true;
        }
        // Connection problems and server errors are worth retrying; refusals are not.
        return (status === 0 || status >= 500 || status === 409 || status === 423) && Boolean(tusOptions);
      },
      onProgress: (bytesSent, bytesTotal) => this.update({ bytesSent, bytesTotal }),
      onChunkComplete: () => {
        const current = this.upload.options.chunkSize ?? RESUMABLE_THRESHOLD_BYTES;
        this.upload.options.chunkSize = Math.min(current * 2, LARGEST_CHUNK_BYTES);
      },
      onSuccess: () => this.update({ state: 'success', url: this.upload.url, bytesSent: this.file.size }),
      onError: (error) => this.update({ state: 'error', error: messageOf(error) }),
    });
  }

  get current(): UploadSnapshot {
    return this.snapshot;
  }

  subscribe(listener: (snapshot: UploadSnapshot) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts, resuming an earlier upload of the same file (for example before a page reload). */
  async start(): Promise<void> {
    const previous = await this.upload.findPreviousUploads();
    if (previous[0]) {
      this.upload.resumeFromPreviousUpload(previous[0]);
      this.update({ isResumed: true });
    }
    this.upload.start();
  }

  async pause(): Promise<void> {
    if (this.snapshot.state !== 'running') {
      return;
    }
    this.update({ state: 'pausing' });
    await this.upload.abort(false);
    // A resume or cancel may have come while the request was stopping.
    if (this.current.state === 'pausing') {
      this.update({ state: 'paused' });
    }
  }

  resume(): void {
    if (this.snapshot.state !== 'paused' && this.snapshot.state !== 'pausing') {
      return;
    }
    this.update({ state: 'running' });
    this.upload.start();
  }

  /** After an error: try again from where the server has the file. */
  retry(): void {
    if (this.snapshot.state === 'error') {
      this.update({ state: 'running', error: null });
      this.upload.start();
    }
  }

  async cancel(): Promise<void> {
    if (this.snapshot.state !== 'running' && this.snapshot.state !== 'pausing') {
      return;
    }
    this.update({ state: 'canceling' });
    try {
      // Terminate: the server deletes what it received.
      await this.upload.abort(true);
    } catch (err) {
      console.error('Canceling the upload failed', err);
    }
    this.update({ state: 'canceled' });
  }

  /**
   * Stops the upload whatever its state, a finished one too, and has the server delete what it
   * received: for a batch of files canceled as a whole.
   */
  async discard(): Promise<void> {
    if (this.snapshot.state === 'canceled') {
      return;
    }
    this.update({ state: 'canceling' });
    try {
      await this.upload.abort(true);
    } catch (err) {
      console.error('Deleting the upload failed', err);
    }
    this.update({ state: 'canceled' });
  }

  private update(change: Partial<UploadSnapshot>): void {
    this.snapshot = { ...this.snapshot, ...change };
    for (const listener of this.listeners) {
      listener(this.snapshot);
    }
  }
}

/** Has the server delete a finished upload that no task holds any more (one of an earlier page). */
export function deleteUpload(url: string, getToken: () => string | null): Promise<void> {
  return tus.Upload.terminate(url, {
    onBeforeRequest: (request) => {
      const token = getToken();
      if (token) {
        request.setHeader('Authorization', `Bearer ${token}`);
      }
    },
  });
}
