import fs from 'node:fs/promises';
import { Writable } from 'node:stream';

/**
 * Bytes of an instance also kept in memory while it is written, so that it is read from them
 * rather than from its file again: an instance of a usual size (a CT slice is half a megabyte).
 */
const KEPT_BYTES = 16 * 1024 * 1024;

/**
 * Where one C-STORE dataset goes as its PDUs arrive: straight into a work file, after the Part 10
 * header, so that no study is held in memory. An instance up to KEPT_BYTES is also kept until it
 * has been read; a larger one is read from its file. Past `maxBytes` the rest is dropped and the
 * instance is marked too large (it is refused once whole).
 */
export class InstanceWriter extends Writable {
  bytes = 0;
  isTooLarge = false;
  failure: Error | undefined;
  /** The work file, once it is open. */
  path: string | undefined;
  private handle: fs.FileHandle | undefined;
  /** What was written so far, while it stays under KEPT_BYTES; undefined past it. */
  private kept: Buffer[] | undefined = [];

  constructor(
    private readonly pathToOpen: Promise<string>,
    private readonly header: Buffer,
    private readonly maxBytes: number,
  ) {
    super({ highWaterMark: 256 * 1024 });
  }

  override _construct(done: (err?: Error | null) => void): void {
    // What arrives before the file is open waits in the stream's buffer (a few PDUs at most).
    this.pathToOpen.then(
      async (path) => {
        this.path = path;
        const handle = await fs.open(path, 'w');
        this.handle = handle;
        await handle.write(this.header);
        this.bytes = this.header.length;
        this.kept?.push(this.header);
        done();
      },
      (err: Error) => {
        // The failure is reported for this instance alone; the association goes on.
        this.failure = err;
        done();
      },
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    this.writeChunks([chunk], done);
  }

  /**
   * The PDUs that arrived while the previous write was on the disk, in one write: an instance
   * arrives in many small pieces, and one write each would make its sender wait on every one.
   */
  override _writev(
    pieces: { chunk: Buffer; encoding: BufferEncoding }[],
    done: (err?: Error | null) => void,
  ): void {
    this.writeChunks(
      pieces.map((piece) => piece.chunk),
      done,
    );
  }

  private writeChunks(chunks: Buffer[], done: (err?: Error | null) => void): void {
    for (const chunk of chunks) {
      this.bytes += chunk.length;
    }
    if (this.bytes > this.maxBytes) {
      this.isTooLarge = true;
    }
    if (this.isTooLarge || this.failure || !this.handle) {
      this.kept = undefined;
      done();
      return;
    }
    if (this.bytes > KEPT_BYTES) {
      this.kept = undefined;
    }
    // Copies: the connection's buffers are not ours to hold once written.
    this.kept?.push(...chunks.map((chunk) => Buffer.from(chunk)));
    this.handle.writev(chunks).then(
      () => done(),
      (err: Error) => {
        this.failure = err;
        done();
      },
    );
  }

  override _final(done: (err?: Error | null) => void): void {
    this.close().then(() => done(), done);
  }

  override _destroy(err: Error | null, done: (err?: Error | null) => void): void {
    this.close().then(
      () => done(err),
      () => done(err),
    );
  }

  private async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  /**
   * The whole file's bytes when they were kept (an instance up to KEPT_BYTES, written without
   * failure), handed over once: the caller reads the instance from them. Undefined otherwise.
   */
  takeKeptBytes(): Buffer | undefined {
    const kept = this.kept;
    this.kept = undefined;
    return kept && !this.failure && !this.isTooLarge ? Buffer.concat(kept) : undefined;
  }

  /** Resolves once every byte received is written (or dropped) and the file is closed. */
  finished(): Promise<void> {
    if (this.writableFinished || this.destroyed) {
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.once('finish', resolve);
      this.once('close', resolve);
      this.once('error', () => resolve());
    });
  }
}
