import { Piscina } from 'piscina';
import type { DecodeLimits } from '../../config.js';
import type { BulkDataPlace } from './bulk-data.js';
import { DicomReadError } from './dicom-read-error.js';
import type { DicomInstance } from './dicom-instance.js';
import type {
  BulkDataTask,
  InstanceTask,
  DecodeFramesTask,
  FrameErrorName,
  FramesTask,
  Outcome,
  PreviewTask,
  ReadBounds,
  RenderTask,
} from './decode-tasks.js';
import type { ImageAttributes } from './frame-data-codecs.js';
import { FrameNotDecodable, FrameNotFound, FramesTooLarge } from './frame-data-errors.js';
import type { FramePayload } from './frame-data.js';
import type { EncodedPreview } from './render-preview.js';

/**
 * Worker threads for everything that reads a stored DICOM file's pixels (WADO-RS rendered and
 * frames, the study preview). On the main thread a 400 KB deflate bomb, a million private elements
 * or a frame declaring 12000 × 12000 held every other request for seconds; here each read runs on
 * its own thread, within an old-generation heap limit (a thread over it is ended and replaced) and a
 * time limit (the thread is ended when it runs out), while the queue of reads waiting for a thread
 * is bounded. The byte bounds (the largest instance, what a deflated dataset may inflate to, the
 * largest frame) are checked inside the tasks, since buffers lie outside the heap limit.
 */

/** The read took more time or memory than a read may: the route answers 413. */
export class DecodeOverLimit extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DecodeOverLimit';
  }
}

/** Every thread is busy and the queue is full: the route answers 503 with Retry-After. */
export class DecodeBusy extends Error {
  constructor() {
    super('The server is busy decoding images; try again shortly.');
    this.name = 'DecodeBusy';
  }
}

/** Seconds a client is told to wait when the queue is full. */
export const DECODE_RETRY_AFTER_SECONDS = 5;
/** How soon a file to be filed asks again for a decode thread when all were busy. */
const BUSY_RETRY_MS = 50;

/** How much lower a decode thread's scheduling priority is than the process's (Linux nice). */
const NICE_INCREMENT = 10;

/** Threads with no task for this long end; the next read starts one again. */
const IDLE_MS = 60_000;

const FRAME_ERRORS: Record<FrameErrorName, new (message: string) => Error> = {
  FrameNotFound,
  FrameNotDecodable,
  FramesTooLarge,
};

/** The ArrayBuffer of a buffer, to move to a thread: its own when it is the whole of it, else a copy. */
function movable(bytes: Uint8Array): ArrayBuffer {
  const isWhole =
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  return isWhole ? bytes.buffer : new Uint8Array(bytes).buffer;
}

function valueOf<T>(outcome: Outcome<T>): T {
  if ('value' in outcome) {
    return outcome.value;
  }
  if ('readError' in outcome) {
    throw new DicomReadError(outcome.readError);
  }
  throw new FRAME_ERRORS[outcome.frameError.name](outcome.frameError.message);
}

export interface DecodePoolOptions extends DecodeLimits {
  maxInstanceBytes: number;
  maxRenderPixels: number;
}

export class DecodePool {
  private readonly pool: Piscina;
  private readonly bounds: ReadBounds;
  /** Reads running or waiting for a thread. */
  private inFlight = 0;

  constructor(private readonly options: DecodePoolOptions) {
    this.bounds = { maxInstanceBytes: options.maxInstanceBytes, maxPixels: options.maxRenderPixels };
    this.pool = new Piscina({
      filename: new URL('./decode-worker-entry.js', import.meta.url).href,
      minThreads: 0,
      maxThreads: options.threads,
      maxQueue: options.maxQueue,
      idleTimeout: IDLE_MS,
      // Lower priority than the main thread, so that on a busy machine the requests it answers (and
      // the event loop that /api/health measures) come before decoding.
      niceIncrement: NICE_INCREMENT,
      resourceLimits: {
        maxOldGenerationSizeMb: options.maxOldGenerationMb,
        maxYoungGenerationSizeMb: 64,
      },
    });
  }

  /** The largest stored file a read takes on; a larger one is refused before it is read (413). */
  get maxInstanceBytes(): number {
    return this.options.maxInstanceBytes;
  }

  /**
   * Whether a frame of the size the archive recorded at ingest is past the render bound, so that it
   * is refused before its file is read or inflated (a 300 KB deflated file may hold 12000 × 12000).
   */
  isOverPixelBound(image: { rows: number | null; columns: number | null }): boolean {
    return (image.rows ?? 0) * (image.columns ?? 0) > this.options.maxRenderPixels;
  }

  private async run<T>(name: string, task: object, transfer: ArrayBuffer[]): Promise<Outcome<T>> {
    // Counted here as well as by piscina, whose maxQueue lets every task with an AbortSignal queue.
    if (this.inFlight >= this.options.threads + this.options.maxQueue) {
      throw new DecodeBusy();
    }
    this.inFlight += 1;
    try {
      return (await this.pool.run(task, {
        name,
        transferList: transfer,
        // The limit counts from the call, so a read queued behind others is given their time too.
        signal: AbortSignal.timeout(
          this.options.timeoutMs * (1 + Math.ceil(this.pool.queueSize / this.options.threads)),
        ),
      })) as Outcome<T>;
    } catch (err) {
      const error = err as NodeJS.ErrnoException;
      if (error.message === 'Task queue is at limit') {
        throw new DecodeBusy();
      }
      if (error.name === 'AbortError') {
        throw new DecodeOverLimit('Reading the image took longer than a read may.', { cause: err });
      }
      // Piscina ends a thread that outgrew its heap and fails its task with the thread's error.
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new DecodeOverLimit('Reading the image took more memory than a read may.', { cause: err });
      }
      throw err;
    } finally {
      this.inFlight -= 1;
    }
  }

  /** One frame (from 0) rendered and encoded as JPEG or PNG. */
  async renderEncoded(file: Uint8Array, frameIndex: number, type: RenderTask['type']): Promise<Buffer> {
    const bytes = movable(file);
    const task: RenderTask = { ...this.bounds, file: bytes, frameIndex, type };
    const image = valueOf(await this.run<Uint8Array>('renderEncoded', task, [bytes]));
    return Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  }

  /** A study preview of one frame (from 0): a full-size PNG and a WebP thumbnail. */
  async renderPreview(file: Uint8Array, frameIndex: number): Promise<EncodedPreview> {
    const bytes = movable(file);
    const task: PreviewTask = { ...this.bounds, file: bytes, frameIndex };
    const drawn = valueOf(await this.run<EncodedPreview>('renderPreview', task, [bytes]));
    const asBuffer = (image: Uint8Array) => Buffer.from(image.buffer, image.byteOffset, image.byteLength);
    return { ...drawn, preview: asBuffer(drawn.preview), thumbnail: asBuffer(drawn.thumbnail) };
  }

  /** Frames (from 1) of a whole file, as stored or decoded (frame-data.ts readFrames). */
  async readFrames(file: Uint8Array, frameNumbers: number[], decompress: boolean): Promise<FramePayload> {
    const bytes = movable(file);
    const task: FramesTask = { ...this.bounds, file: bytes, frameNumbers, decompress };
    return valueOf(await this.run<FramePayload>('readFrames', task, [bytes]));
  }

  /** Compressed frames already taken out of their file, decoded. */
  async decodeFrames(
    transferSyntaxUid: string,
    image: ImageAttributes,
    codestreams: Uint8Array[],
  ): Promise<{ frames: Uint8Array[]; photometricInterpretation: string }> {
    const buffers = codestreams.map(movable);
    const task: DecodeFramesTask = {
      transferSyntaxUid,
      image,
      codestreams: buffers,
      maxPixels: this.bounds.maxPixels,
    };
    return valueOf(await this.run('decodeFrames', task, [...new Set(buffers)]));
  }

  /** One bulk value of a file (bulk-data.ts), or null when it has none at that place. */
  async readBulkData(file: Uint8Array, place: BulkDataPlace): Promise<Uint8Array | null> {
    const bytes = movable(file);
    const task: BulkDataTask = { ...this.bounds, file: bytes, place };
    return valueOf(await this.run<Uint8Array | null>('readBulkData', task, [bytes]));
  }

  /**
   * What a file to be filed holds (dicom-instance.ts readDicomInstance). Filing waits for a thread
   * rather than being refused when all are busy: an upload is not lost to someone's viewer.
   */
  async readInstance(file: Uint8Array): Promise<DicomInstance> {
    for (;;) {
      const bytes = movable(file);
      try {
        return valueOf(
          await this.run<DicomInstance>('readInstance', { file: bytes } satisfies InstanceTask, [bytes]),
        );
      } catch (err) {
        if (!(err instanceof DecodeBusy)) {
          throw err;
        }
        // Not handed over: the bytes are still this thread's to send again.
        await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS));
      }
    }
  }

  /** Ends the threads; reads still running fail. */
  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
