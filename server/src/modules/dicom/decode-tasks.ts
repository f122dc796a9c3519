/**
 * What a decode thread does (decode-pool.ts hands the tasks over): parsing, inflating, decoding and
 * encoding of stored files, each of which a hostile file can make take seconds and gigabytes. Each
 * task answers with an outcome rather than throwing, since an error crossing threads loses its
 * class: the pool turns a refusal back into the error the callers know.
 */
import { STUDY_MESSAGES } from '@ra/shared';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import sharp from 'sharp';
import '../../lib/sharp-setup.js';
import { bulkValueOf, type BulkDataPlace } from './bulk-data.js';
import { readDicomInstance, type DicomInstance } from './dicom-instance.js';
import { parseDicom } from './dicom-parser.js';
import { DicomReadError, type DicomReadReason } from './dicom-read-error.js';
import { decodeFrame, decodedFrameBytes, type ImageAttributes } from './frame-data-codecs.js';
import { FrameNotDecodable, FrameNotFound, FramesTooLarge } from './frame-data-errors.js';
import { readFrames as readFileFrames, type FramePayload } from './frame-data.js';
import { encodePreview, renderFrame } from './render-preview.js';

/** The bounds every task reads a file within (config.ts). */
export interface ReadBounds {
  maxInstanceBytes: number;
  /** Samples of the largest frame decoded or rendered. */
  maxPixels: number;
}

export type FrameErrorName = 'FrameNotFound' | 'FrameNotDecodable' | 'FramesTooLarge';

/** A task's answer: its value, or why the file was refused, as the error the caller would have met. */
export type Outcome<T> =
  { value: T } | { readError: DicomReadReason } | { frameError: { name: FrameErrorName; message: string } };

const FRAME_ERRORS = [FrameNotFound, FrameNotDecodable, FramesTooLarge];

async function outcomeOf<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { value: await run() };
  } catch (error) {
    if (error instanceof DicomReadError) {
      return { readError: error.reason };
    }
    const frameError = FRAME_ERRORS.find((type) => error instanceof type);
    if (frameError) {
      return { frameError: { name: frameError.name as FrameErrorName, message: (error as Error).message } };
    }
    // A frame index outside the image, from renderFrame.
    if (error instanceof RangeError) {
      return { frameError: { name: 'FrameNotFound', message: error.message } };
    }
    throw error;
  }
}

/** An ArrayBuffer holding exactly these bytes: the buffer itself when it is theirs alone, else a copy. */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const isWhole =
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  return isWhole ? bytes.buffer : new Uint8Array(bytes).buffer;
}

/**
 * Answers with the outcome, its binary parts moved to the calling thread rather than copied (a
 * decoded frame may be hundreds of megabytes). `binary` makes each part a view of its own buffer.
 */
function handOver<T>(outcome: Outcome<T>, binary: (value: T) => { value: T; buffers: ArrayBuffer[] }) {
  if (!('value' in outcome)) {
    return outcome;
  }
  const { value, buffers } = binary(outcome.value);
  return move({ [transferableSymbol]: [...new Set(buffers)], [valueSymbol]: { value } });
}

export interface RenderTask extends ReadBounds {
  file: ArrayBuffer;
  /** From 0. */
  frameIndex: number;
  type: 'image/jpeg' | 'image/png';
}

/** One frame of a file, windowed as in the preview and encoded as JPEG or PNG (WADO-RS rendered). */
export async function renderEncoded(task: RenderTask) {
  const outcome = await outcomeOf(async () => {
    const frame = await renderFrame(new Uint8Array(task.file), task.frameIndex, task.maxPixels, task);
    // The frame is already held to the pixel limit, so sharp's own input limit does not apply.
    const image = sharp(frame.rgba, {
      raw: { width: frame.width, height: frame.height, channels: 4 },
      limitInputPixels: false,
    });
    return (task.type === 'image/png' ? image.png() : image.jpeg({ quality: 90 })).toBuffer();
  });
  return handOver(outcome, (encoded) => {
    const buffer = ownBuffer(encoded);
    return { value: Buffer.from(buffer), buffers: [buffer] };
  });
}

export interface PreviewTask extends ReadBounds {
  file: ArrayBuffer;
  frameIndex: number;
}

/** The study preview of one frame: a full-size PNG and a WebP thumbnail. */
export async function renderPreview(task: PreviewTask) {
  const outcome = await outcomeOf(async () =>
    encodePreview(await renderFrame(new Uint8Array(task.file), task.frameIndex, task.maxPixels, task)),
  );
  return handOver(outcome, (drawn) => {
    const preview = ownBuffer(drawn.preview);
    const thumbnail = ownBuffer(drawn.thumbnail);
    return {
      value: { ...drawn, preview: Buffer.from(preview), thumbnail: Buffer.from(thumbnail) },
      buffers: [preview, thumbnail],
    };
  });
}

/** Frames made views of buffers of their own, to be moved; the same frame twice stays one buffer. */
function movableFrames(frames: Uint8Array[]): { frames: Uint8Array[]; buffers: ArrayBuffer[] } {
  const own = new Map<Uint8Array, Uint8Array>();
  for (const frame of frames) {
    if (!own.has(frame)) {
      own.set(frame, new Uint8Array(ownBuffer(frame)));
    }
  }
  return {
    frames: frames.map((frame) => own.get(frame)!),
    buffers: [...own.values()].map((frame) => frame.buffer as ArrayBuffer),
  };
}

export interface FramesTask extends ReadBounds {
  file: ArrayBuffer;
  frameNumbers: number[];
  decompress: boolean;
}

/** Frames of a whole file, as WADO-RS sends them (frame-data.ts). */
export async function readFrames(task: FramesTask) {
  const outcome = await outcomeOf(() =>
    readFileFrames(new Uint8Array(task.file), task.frameNumbers, {
      decompress: task.decompress,
      maxPixels: task.maxPixels,
      maxInstanceBytes: task.maxInstanceBytes,
    }),
  );
  return handOver(outcome, (payload: FramePayload) => {
    const { frames, buffers } = movableFrames(payload.frames);
    return { value: { ...payload, frames }, buffers };
  });
}

export interface DecodeFramesTask {
  transferSyntaxUid: string;
  image: ImageAttributes;
  codestreams: ArrayBuffer[];
  maxPixels: number;
}

/** Compressed frames already taken out of their file (by their byte ranges), decoded one by one. */
export async function decodeFrames(task: DecodeFramesTask) {
  const outcome = await outcomeOf(async () => {
    const { image } = task;
    if (image.rows * image.columns * image.samplesPerPixel > task.maxPixels) {
      throw new FramesTooLarge('The frames are larger than the decoder accepts.');
    }
    if (decodedFrameBytes(image) === 0) {
      throw new FrameNotDecodable('The image attributes name no samples to decode.');
    }
    const frames: Uint8Array[] = [];
    let { photometricInterpretation } = image;
    for (const codestream of task.codestreams) {
      const decoded = await decodeFrame(task.transferSyntaxUid, new Uint8Array(codestream), image);
      frames.push(decoded.pixels);
      photometricInterpretation = decoded.photometricInterpretation;
    }
    return { frames, photometricInterpretation };
  });
  return handOver(outcome, (decoded) => {
    const { frames, buffers } = movableFrames(decoded.frames);
    return { value: { ...decoded, frames }, buffers };
  });
}

export interface BulkDataTask extends ReadBounds {
  file: ArrayBuffer;
  place: BulkDataPlace;
}

/** One bulk value of a file (bulk-data.ts), or null when the file has none at that place. */
export async function readBulkData(task: BulkDataTask) {
  const outcome = await outcomeOf(() => {
    // Bulk values lie before the pixel data, which is neither inflated nor read.
    const { layout, dataset } = parseDicom(new Uint8Array(task.file), {
      maxInstanceBytes: task.maxInstanceBytes,
      isHeadOnly: true,
    });
    return Promise.resolve(bulkValueOf(dataset, task.place, { littleEndian: layout.littleEndian }) ?? null);
  });
  return handOver(outcome, (value) => {
    if (value === null) {
      return { value, buffers: [] };
    }
    const buffer = ownBuffer(value);
    return { value: new Uint8Array(buffer), buffers: [buffer] };
  });
}

export interface InstanceTask {
  file: ArrayBuffer;
}

/** What a file to be filed holds (dicom-instance.ts): its attributes, never its pixels decoded. */
export async function readInstance(task: InstanceTask): Promise<Outcome<DicomInstance>> {
  return outcomeOf(() => {
    try {
      return Promise.resolve(readDicomInstance(new Uint8Array(task.file)));
    } catch (error) {
      // A dataset nested deeper than the stack is a file that cannot be read, not a fault here.
      if (error instanceof RangeError && /call stack/i.test(error.message)) {
        throw new DicomReadError(STUDY_MESSAGES.unreadable, { cause: error });
      }
      throw error;
    }
  });
}
