import fsp from 'node:fs/promises';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { STUDY_MESSAGES } from '@ra/shared';
import { READ_LIMIT_MESSAGES } from '../dicom/index.js';
import type { ReadPart } from '../../lib/multipart-related/multipart-related-splitter.js';
import type { FileRead } from './dicom-file-read.js';

/**
 * One part handed to a worker: read as DICOM under `name`, then written to `file`; without `bytes`,
 * the file is written already and is read from there.
 */
export interface PartJob {
  id: number;
  name: string;
  file: string;
  bytes?: ArrayBuffer;
}

/** A part's body as the multipart reader gives it: the pieces it arrived in, joined on demand. */
type PartBody = Pick<ReadPart, 'chunks' | 'size' | 'body'>;

/**
 * From this size a part is written to its file from its pieces as they arrived, by the kernel on
 * a pool thread, and the worker reads it from there: joining it into one buffer here would touch
 * every page of a new buffer on this thread (108 MB held it for about half a second).
 */
const WRITTEN_HERE_BYTES = 4 * 1024 ** 2;
/** Pieces per writev call (the system's IOV_MAX). */
const PIECES_PER_WRITE = 1024;

/** Writes a body's pieces to a new file. */
async function writePieces(file: string, chunks: Buffer[]): Promise<void> {
  const handle = await fsp.open(file, 'w');
  try {
    for (let start = 0; start < chunks.length; start += PIECES_PER_WRITE) {
      const batch = chunks.slice(start, start + PIECES_PER_WRITE);
      const expected = batch.reduce((sum, chunk) => sum + chunk.length, 0);
      const { bytesWritten } = await handle.writev(batch);
      if (bytesWritten !== expected) {
        throw Object.assign(new Error('A part could not be written whole.'), { code: 'EIO' });
      }
    }
  } finally {
    await handle.close();
  }
}

/**
 * What a worker says of a part: `parsed` once it is read (it writes the file next), then `written`
 * once the file is written too; of a part written already, `read`; `error` when anything failed.
 */
export type PartOutcome =
  | { id: number; parsed: FileRead }
  | { id: number; written: true }
  | { id: number; read: FileRead }
  | { id: number; error: { message: string; code: string | undefined } };

/** Parts taken and not yet answered, across all requests: bounds what waits in memory. */
const MAX_PENDING_PARTS = 16;
const MAX_PENDING_BYTES = 64 * 1024 ** 2;

/** The old-generation heap of one part reader, in MiB, unless the app sets it (DICOM_PART_MEMORY_MB). */
export const DEFAULT_PART_HEAP_MB = 256;

/**
 * The young generation of a part reader, in MiB. The server's flag gives every thread's heap a 64 MB
 * semi-space (node-flags.ts), which a reader, whose objects are a part's header and die with it,
 * does not need: two readers committed 140 to 180 MB each while holding 30 to 50 MB of live objects.
 */
const PART_YOUNG_MB = 16;

/** The worker's entry, which loads the compiled worker module or its TypeScript (lib/worker-module.js). */
const WORKER_ENTRY = new URL('./dicom-part-worker-entry.js', import.meta.url);

/** A part taken: waiting for a worker (its bytes still here), being read, or being written. */
interface Part {
  id: number;
  name: string;
  file: string;
  /** Its bytes until a worker takes them (then moved there); none when its file is written already. */
  bytes: ArrayBuffer | undefined;
  size: number;
  worker: Worker | undefined;
  /**
   * What the worker said the part is, once it has read it (its file may still be being written);
   * wrapped, since a media index (DICOMDIR) reads as undefined.
   */
  parsedAs: { read: FileRead } | undefined;
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
 * process alive.
 *
 * Each worker's heap is bounded, and a worker reads one part at a time: it is handed the next
 * only once it has read the last (while it writes that one), so the parts waiting keep their
 * bytes here. A worker that outgrows its heap or dies is replaced; the part it was reading is
 * refused with the reason (the only part whose bytes it held unread), and no other part is lost.
 */
export class PartReaders {
  private readonly workers: Worker[] = [];
  /** Workers made under an earlier heap bound: given no more parts, ended once they hold none. */
  private readonly retired = new Set<Worker>();
  /** Every part taken and not yet answered, in the order taken. */
  private readonly parts = new Map<number, Part>();
  private nextId = 1;
  private pendingBytes = 0;
  private readonly roomWaiters: (() => void)[] = [];

  constructor(private heapMb = DEFAULT_PART_HEAP_MB) {}

  /**
   * Sets the heap bound (the app's DICOM_PART_MEMORY_MB). Workers made under another bound take no
   * more parts and end once they hold none.
   */
  limitHeap(megabytes: number): void {
    if (megabytes !== this.heapMb) {
      this.heapMb = megabytes;
      this.workers.forEach((worker) => this.retired.add(worker));
      this.endRetired();
    }
  }

  private endRetired(): void {
    const holding = new Set([...this.parts.values()].map((part) => part.worker));
    for (const worker of this.retired) {
      if (!holding.has(worker)) {
        this.retired.delete(worker);
        this.workers.splice(this.workers.indexOf(worker), 1);
        void worker.terminate();
      }
    }
  }

  private get size(): number {
    return Math.min(4, Math.max(2, os.availableParallelism()));
  }

  private spawn(): Worker {
    const worker = new Worker(WORKER_ENTRY, {
      resourceLimits: { maxOldGenerationSizeMb: this.heapMb, maxYoungGenerationSizeMb: PART_YOUNG_MB },
    });
    worker.unref();
    worker.on('message', (outcome: PartOutcome) => this.settle(outcome));
    worker.on('error', (err) => this.lose(worker, err));
    worker.on('exit', (code) =>
      this.lose(worker, new Error(`A DICOM part worker stopped (exit code ${code}).`)),
    );
    this.workers.push(worker);
    return worker;
  }

  /**
   * A worker reading no part. One holding no part at all comes first, then a new one while fewer
   * than `size` exist, then one still writing a part it has read: a worker writes synchronously, so
   * a part handed to it waits for that write (about a millisecond for a CT slice) before it is read.
   */
  private freeWorker(): Worker | undefined {
    const held = [...this.parts.values()];
    const reading = new Set(held.filter((part) => !part.parsedAs).map((part) => part.worker));
    const writing = new Set(held.filter((part) => part.parsedAs).map((part) => part.worker));
    const current = this.workers.filter((worker) => !this.retired.has(worker) && !reading.has(worker));
    return (
      current.find((worker) => !writing.has(worker)) ??
      (this.workers.length - this.retired.size < this.size ? this.spawn() : current[0])
    );
  }

  /** Hands the parts waiting, oldest first, to workers reading none. */
  private dispatch(): void {
    for (const part of this.parts.values()) {
      if (part.worker !== undefined) {
        continue;
      }
      const worker = this.freeWorker();
      if (!worker) {
        return;
      }
      const bytes = part.bytes;
      part.bytes = undefined;
      part.worker = worker;
      const job: PartJob = { id: part.id, name: part.name, file: part.file, bytes };
      worker.postMessage(job, bytes ? [bytes] : []);
    }
  }

  private finish(id: number): Part | undefined {
    const part = this.parts.get(id);
    if (part) {
      this.parts.delete(id);
      this.pendingBytes -= part.size;
      this.roomWaiters.splice(0).forEach((wake) => wake());
    }
    return part;
  }

  private settle(outcome: PartOutcome): void {
    if ('parsed' in outcome) {
      const part = this.parts.get(outcome.id);
      if (part) {
        part.parsedAs = { read: outcome.parsed };
        part.parsed(outcome.parsed);
      }
      this.dispatch();
      return;
    }
    const part = this.finish(outcome.id);
    if (part && 'error' in outcome) {
      part.reject(Object.assign(new Error(outcome.error.message), { code: outcome.error.code }));
    } else if (part) {
      // `written` follows `parsed`, whose read it completes.
      const read = 'read' in outcome ? outcome.read : part.parsedAs?.read;
      part.parsed(read);
      part.resolve(read);
    }
    this.endRetired();
    this.dispatch();
  }

  /**
   * A worker ended: the part it was reading is refused (over its heap: the memory reason), a part
   * it had read but not finished writing fails, and a new worker takes the parts waiting.
   */
  private lose(worker: Worker, err: Error & { code?: string }): void {
    const at = this.workers.indexOf(worker);
    if (at < 0) {
      return;
    }
    this.workers.splice(at, 1);
    this.retired.delete(worker);
    const reason =
      err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? READ_LIMIT_MESSAGES.tooMuchMemory : STUDY_MESSAGES.unreadable;
    for (const part of [...this.parts.values()].filter((held) => held.worker === worker)) {
      this.finish(part.id);
      if (part.parsedAs) {
        part.reject(err);
      } else {
        const refused: FileRead = { skipped: { name: part.name, reason } };
        part.parsed(refused);
        part.resolve(refused);
      }
    }
    this.dispatch();
  }

  /**
   * Takes a part once few enough are waiting. `parsed` tells what the part is as soon as it is
   * read, while its file may still be being written; `read` tells the same once the file is
   * written. A file is used only after `read`. A buffer given is unusable afterwards: its memory
   * moves to the worker.
   */
  async start(
    name: string,
    file: string,
    body: Buffer | PartBody,
  ): Promise<{ parsed: Promise<FileRead>; read: Promise<FileRead> }> {
    const size = Buffer.isBuffer(body) ? body.length : body.size;
    while (
      this.parts.size > 0 &&
      (this.parts.size >= MAX_PENDING_PARTS || this.pendingBytes + size > MAX_PENDING_BYTES)
    ) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve));
    }
    let bytes: ArrayBuffer | undefined;
    let written: Error | undefined;
    if (!Buffer.isBuffer(body) && size >= WRITTEN_HERE_BYTES) {
      written = await writePieces(file, body.chunks).then(
        () => undefined,
        (err: unknown) => (err instanceof Error ? err : new Error(String(err))),
      );
    } else {
      const whole = Buffer.isBuffer(body) ? body : body.body;
      // Only a buffer that is its memory whole can move; a small one shares Node's pool and is copied.
      const isWhole = whole.byteOffset === 0 && whole.byteLength === whole.buffer.byteLength;
      bytes = isWhole && whole.buffer instanceof ArrayBuffer ? whole.buffer : new Uint8Array(whole).buffer;
    }
    let parsed!: (read: FileRead) => void;
    const whenParsed = new Promise<FileRead>((resolve) => {
      parsed = resolve;
    });
    const id = this.nextId++;
    const read = written
      ? Promise.reject(written)
      : new Promise<FileRead>((resolve, reject) => {
          this.parts.set(id, {
            id,
            name,
            file,
            bytes,
            size,
            worker: undefined,
            parsedAs: undefined,
            parsed,
            resolve,
            reject,
          });
        });
    if (!written) {
      this.pendingBytes += size;
      this.dispatch();
    }
    // Awaited by the caller once the request is read; until then a failure is not unhandled.
    read.catch(() => undefined);
    // A part that fails before it is parsed is told of by `read`, and then by `parsed` too.
    const parsedOrFailed = Promise.race([whenParsed, read]);
    parsedOrFailed.catch(() => undefined);
    return { parsed: parsedOrFailed, read };
  }
}

export const dicomPartReaders = new PartReaders();
