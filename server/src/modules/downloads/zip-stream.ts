import crypto from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import yazl from 'yazl';
import type { Storage } from '../storage/index.js';
import type { StoredEntry } from './zip-layout.js';

/*
 * A download ZIP written as it is sent (docs/api.md §12.4): yazl writes the entries one after the
 * other, reading each stored file only when its turn comes and only as fast as the client takes
 * the bytes (stream backpressure); nothing of the whole is held in memory or on disk. Every entry
 * is stored, not deflated (DICOM and raster images barely compress), with the same time and
 * mode, in a stable order: the same records give the same bytes, so the size is known before the
 * first byte (Content-Length) and a client may resume with a Range.
 */

export interface ZipPlan {
  /** Files made for this download (DICOMDIR, index.html, archive.json), written first. */
  generated: { path: string; data: Buffer }[];
  stored: StoredEntry[];
  /** Every entry's modification time. */
  mtime: Date;
}

/** A strong validator of the ZIP's bytes: the same plan (stored files never change under a key) gives the same tag. */
export function etagOf(plan: ZipPlan): string {
  const hash = crypto.createHash('sha256');
  hash.update(`${plan.mtime.getTime()}\n`);
  for (const file of plan.generated) {
    hash.update(`${file.path}\n`).update(file.data).update('\n');
  }
  for (const entry of plan.stored) {
    hash.update(`${entry.path}\n${entry.storageKey}\n${entry.size}\n`);
  }
  return `"${hash.digest('base64url').slice(0, 32)}"`;
}

/** Inclusive byte positions. */
export interface ZipRange {
  start: number;
  end: number;
}

/** Passes on the bytes from `first` to `last` (inclusive) of what goes through it, and ends after `end`. */
class ByteWindow extends Transform {
  private position = 0;
  /** Whether every byte of the window has been passed on. */
  done = false;

  constructor(
    private readonly first: number,
    private readonly last: number,
    private readonly onDone: () => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.done) {
      callback();
      return;
    }
    const from = this.position;
    this.position += chunk.length;
    if (this.position > this.first && from <= this.last) {
      this.push(chunk.subarray(Math.max(0, this.first - from), Math.min(chunk.length, this.last - from + 1)));
    }
    if (this.position > this.last) {
      // Nothing after the range is needed: stop reading files.
      this.done = true;
      this.push(null);
      this.onDone();
    }
    callback();
  }
}

export interface ZipStream {
  /** Bytes of the whole ZIP. */
  size: number;
  /** The range sent, null for the whole ZIP; 'unsatisfiable' when the range asked for is past its end (body is then empty). */
  range: ZipRange | null | 'unsatisfiable';
  body: Readable;
}

/**
 * The ZIP of `plan`, or the bytes of the range `rangeFor` chooses once the ZIP's size is known.
 * Destroying `body` (the client went away) stops the work: the file being read is closed and no
 * other is opened.
 */
export function streamZip(
  storage: Storage,
  plan: ZipPlan,
  rangeFor: (size: number) => ZipRange | null | 'unsatisfiable' = () => null,
): ZipStream {
  const zip = new yazl.ZipFile();
  const options = { mtime: plan.mtime, mode: 0o100644, compress: false };
  let stopped = false;
  // The files opened and not yet closed: the one being written and the next, which yazl may open ahead.
  const open = new Set<Readable>();
  const stop = () => {
    if (!stopped) {
      stopped = true;
      // Closed without an error: nothing is left to report it to, and nothing waits for them.
      for (const stream of open) {
        stream.destroy();
      }
    }
  };
  for (const file of plan.generated) {
    zip.addBuffer(file.data, file.path, options);
  }
  for (const entry of plan.stored) {
    zip.addReadStreamLazy(entry.path, { ...options, size: entry.size }, (callback) => {
      if (stopped) {
        callback(new Error('The download was stopped.'), undefined as unknown as Readable);
        return;
      }
      storage.read(entry.storageKey).then(
        (stream) => {
          if (stopped) {
            stream.destroy();
            return;
          }
          open.add(stream);
          stream.once('close', () => open.delete(stream));
          callback(null, stream);
        },
        (error: unknown) => callback(error, undefined as unknown as Readable),
      );
    });
  }
  let size = -1;
  // Called during end(): every entry's size is known and none is compressed.
  (zip.end as (options: undefined, sized: (total: number) => void) => void)(undefined, (total) => {
    size = total;
  });
  if (size < 0) {
    throw new Error('The ZIP size could not be computed.');
  }
  const chosen = rangeFor(size);
  const range = chosen === 'unsatisfiable' ? { start: 0, end: -1 } : chosen;
  const output = zip.outputStream as Readable;
  const window: ByteWindow = new ByteWindow(range?.start ?? 0, range?.end ?? size - 1, () => {
    stop();
    output.unpipe(window);
    window.end();
  });
  zip.on('error', (error: Error) => {
    // After the window's last byte, the error is only the stop of files no longer needed.
    if (!window.done) {
      window.destroy(error);
    }
  });
  output.pipe(window);
  window.on('close', () => {
    output.unpipe(window);
    stop();
  });
  if (chosen === 'unsatisfiable') {
    window.destroy();
  }
  return { size, range: chosen, body: window };
}
