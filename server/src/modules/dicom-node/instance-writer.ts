import fs from 'node:fs/promises';
import { Writable } from 'node:stream';

/**
 * Where one C-STORE dataset goes as its PDUs arrive: straight into a work file, after the Part 10
 * header, so that no instance is held in memory. Past `maxBytes` the rest is dropped and the
 * instance is marked too large (it is refused once whole).
 */
export class InstanceWriter extends Writable {
  bytes = 0;
  isTooLarge = false;
  failure: Error | undefined;
  /** The work file, once it is open. */
  path: string | undefined;
  private handle: fs.FileHandle | undefined;

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
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      this.isTooLarge = true;
    }
    if (this.isTooLarge || this.failure || !this.handle) {
      done();
      return;
    }
    this.handle.write(chunk).then(
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
