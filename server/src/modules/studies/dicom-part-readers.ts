import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { FileRead } from './dicom-file-read.js';

/** One part handed to a worker: read as DICOM under `name`, then written to `file`. */
export interface PartJob {
  id: number;
  name: string;
  file: string;
  bytes: ArrayBuffer;
}

/**
 * What a worker says of a part: `parsed` once it is read (it writes the file next), then `read` once
 * the file is written too, or `error` when either failed.
 */
export type PartOutcome =
  | { id: number; parsed: FileRead }
  | { id: number; read: FileRead }
  | { id: number; error: { message: string; code: string | undefined } };

/** Parts handed over and not yet answered, across all requests: bounds what waits in memory. */
const MAX_PENDING_PARTS = 16;
const MAX_PENDING_BYTES = 64 * 1024 ** 2;

/** The worker's entry, which loads the compiled worker module or its TypeScript (lib/worker-module.js). */
const WORKER_ENTRY = new URL('./dicom-part-worker-entry.js', import.meta.url);

interface Waiting {
  bytes: number;
  parsed: (read: FileRead) => void;
  resolve: (read: FileRead) => void;
  reject: (err: Error) => void;
}

/**
 * Worker threads that write the parts of a multipart body (a STOW-RS request, an upload's bundle)
 * to disk and read them as DICOM, so that parts are written and parsed on the other cores while
 * the main thread reads the next ones and files the last. One per core, two at least and four at
 * most (a worker spends most of its time in the kernel, writing: on two cores, two workers stored
 * a STOW-RS study about 5 % faster than one). They are made when first needed and never keep the
 * process alive. A worker that dies fails what it held, and a new one takes its place.
 */
class PartReaders {
  private readonly workers: Worker[] = [];
  private readonly waiting = new Map<number, Waiting>();
  private readonly load = new Map<Worker, number>();
  private readonly owner = new Map<number, Worker>();
  private nextId = 1;
  private pendingBytes = 0;
  private readonly roomWaiters: (() => void)[] = [];

  private get size(): number {
    return Math.min(4, Math.max(2, os.availableParallelism()));
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_ENTRY);
    worker.unref();
    this.load.set(worker, 0);
    worker.on('message', (outcome: PartOutcome) => this.settle(outcome));
    const fail = (err: Error) => {
      const at = this.workers.indexOf(worker);
      if (at < 0) {
        return;
      }
      this.workers.splice(at, 1);
      this.load.delete(worker);
      for (const [id, owner] of this.owner) {
        if (owner === worker) {
          this.finish(id)?.reject(err);
        }
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`A DICOM part worker stopped (exit code ${code}).`)));
    this.workers.push(worker);
    return worker;
  }

  /** The least busy worker, made when fewer than `size` exist and all are busy. */
  private pick(): Worker {
    const idle = this.workers.find((worker) => this.load.get(worker) === 0);
    if (idle) {
      return idle;
    }
    if (this.workers.length < this.size) {
      return this.spawn();
    }
    return this.workers.reduce((best, worker) =>
      this.load.get(worker)! < this.load.get(best)! ? worker : best,
    );
  }

  private finish(id: number): Waiting | undefined {
    const waiting = this.waiting.get(id);
    const worker = this.owner.get(id);
    this.waiting.delete(id);
    this.owner.delete(id);
    if (worker && this.load.has(worker)) {
      this.load.set(worker, this.load.get(worker)! - 1);
    }
    if (waiting) {
      this.pendingBytes -= waiting.bytes;
      this.roomWaiters.splice(0).forEach((wake) => wake());
    }
    return waiting;
  }

  private settle(outcome: PartOutcome): void {
    if ('parsed' in outcome) {
      this.waiting.get(outcome.id)?.parsed(outcome.parsed);
      return;
    }
    const waiting = this.finish(outcome.id);
    if (!waiting) {
      return;
    }
    if ('error' in outcome) {
      waiting.reject(Object.assign(new Error(outcome.error.message), { code: outcome.error.code }));
    } else {
      waiting.parsed(outcome.read);
      waiting.resolve(outcome.read);
    }
  }

  /**
   * Hands a part over once few enough are waiting. `parsed` tells what the part is as soon as it is
   * read, while its file may still be being written; `read` tells the same once the file is
   * written. A file is used only after `read`. `body` is unusable afterwards: its memory moves to
   * the worker.
   */
  async start(
    name: string,
    file: string,
    body: Buffer,
  ): Promise<{ parsed: Promise<FileRead>; read: Promise<FileRead> }> {
    while (
      this.waiting.size > 0 &&
      (this.waiting.size >= MAX_PENDING_PARTS || this.pendingBytes + body.length > MAX_PENDING_BYTES)
    ) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
    // Only a buffer that is its memory whole can move; a small one shares Node's pool and is copied.
    const isWhole = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength;
    const bytes = isWhole && body.buffer instanceof ArrayBuffer ? body.buffer : new Uint8Array(body).buffer;
    const id = this.nextId++;
    const worker = this.pick();
    let parsed!: (read: FileRead) => void;
    const whenParsed = new Promise<FileRead>((resolve) => {
      parsed = resolve;
    });
    const read = new Promise<FileRead>((resolve, reject) => {
      this.waiting.set(id, { bytes: bytes.byteLength, parsed, resolve, reject });
    });
    this.owner.set(id, worker);
    this.load.set(worker, this.load.get(worker)! + 1);
    this.pendingBytes += bytes.byteLength;
    const job: PartJob = { id, name, file, bytes };
    worker.postMessage(job, [bytes]);
    // Awaited by the caller once the request is read; until then a failure is not unhandled.
    read.catch(() => undefined);
    // A part that fails before it is parsed is told of by `read`, and then by `parsed` too.
    const parsedOrFailed = Promise.race([whenParsed, read]);
    parsedOrFailed.catch(() => undefined);
    return { parsed: parsedOrFailed, read };
  }
}

export const dicomPartReaders = new PartReaders();
