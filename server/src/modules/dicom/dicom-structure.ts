import { constants as zlibConstants, inflateRawSync } from 'node:zlib';
import { STUDY_MESSAGES } from '@ra/shared';
import {
  need,
  readTag,
  walkDataset,
  walkElement,
  type OpaqueSequence,
  type ValueLayout,
  type Walk,
} from './dataset-walk.js';
import { DicomReadError, READ_LIMIT_MESSAGES } from './dicom-read-error.js';

export type { Fragment, OpaqueSequence, ValueLayout } from './dataset-walk.js';

/**
 * Walks a Part 10 file's elements before dcmjs reads it, and refuses a file whose lengths do not fit.
 *
 * Why: dcmjs trusts every length it meets. A value that claims more bytes than its container holds
 * is zero-padded to the claimed size (a 9 KB file can make it allocate 4 GiB) and a truncated file
 * parses without an error. The walk reads the elements the way dcmjs 0.50 does (its VR rules, its
 * dictionary for implicit VR, its scan for the end of an undefined-length item), so every length
 * dcmjs later acts on has been checked against the bytes that really hold it (dataset-walk.ts).
 */

export const TRANSFER_SYNTAX = {
  implicitLittleEndian: '1.2.840.10008.1.2',
  explicitLittleEndian: '1.2.840.10008.1.2.1',
  deflatedLittleEndian: '1.2.840.10008.1.2.1.99',
  explicitBigEndian: '1.2.840.10008.1.2.2',
} as const;

/** The largest instance read when the caller names none (config.ts DICOM_MAX_INSTANCE_BYTES). */
export const DEFAULT_MAX_INSTANCE_BYTES = 256 * 1024 ** 2;

/**
 * What a deflated dataset may inflate to: four times the largest instance, as no real dataset
 * compresses better than that while a zip bomb inflates a few KB to gigabytes.
 */
export function maxInflatedBytes(maxInstanceBytes: number): number {
  return 4 * maxInstanceBytes;
}

/**
 * Inflates a deflated dataset into one buffer, or refuses it past `limit` bytes. zlib is given a
 * single output chunk of the limit's size: Node would otherwise collect 16 KB chunks and copy them
 * into one buffer at the end, holding the dataset twice. The chunk is allocated unfilled, so the
 * pages zlib never writes are never touched and cost no memory.
 */
function inflateDataset(deflated: Uint8Array, limit: number): Buffer {
  try {
    return inflateRawSync(deflated, { chunkSize: limit + 1, maxOutputLength: limit });
  } catch (error) {
    const isTooLarge =
      error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
    throw new DicomReadError(isTooLarge ? READ_LIMIT_MESSAGES.inflatesTooLarge : STUDY_MESSAGES.unreadable, {
      cause: error,
    });
  }
}

/**
 * What the attributes before the pixels of a deflated dataset may inflate to when only they are
 * wanted (reading a file to file it): far past the metadata an instance may keep.
 */
export const MAX_INFLATED_HEAD_BYTES = 64 * 1024 ** 2;
/** The compressed bytes first inflated for the head; each further try inflates four times more. */
const FIRST_HEAD_INPUT_BYTES = 1024;

/**
 * Inflates only the start of a deflated dataset, enough to hold every element before the top-level
 * pixel data: the longer compressed prefixes are inflated (zlib flushes what a prefix holds) until
 * `isEnough` says the head is whole, or the whole dataset is inflated. A zip bomb's gigabytes of
 * pixels are never inflated; a head past MAX_INFLATED_HEAD_BYTES is refused.
 */
function inflateHead(deflated: Uint8Array, isEnough: (inflated: Buffer) => boolean): Buffer {
  for (let input = FIRST_HEAD_INPUT_BYTES; ; input *= 4) {
    const isWhole = input >= deflated.length;
    let inflated: Buffer;
    try {
      inflated = inflateRawSync(deflated.subarray(0, input), {
        finishFlush: isWhole ? zlibConstants.Z_FINISH : zlibConstants.Z_SYNC_FLUSH,
        maxOutputLength: MAX_INFLATED_HEAD_BYTES,
      });
    } catch (error) {
      const isTooLarge =
        error instanceof RangeError || (error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE';
      throw new DicomReadError(
        isTooLarge ? READ_LIMIT_MESSAGES.inflatesTooLarge : STUDY_MESSAGES.unreadable,
        {
          cause: error,
        },
      );
    }
    if (isWhole || isEnough(inflated)) {
      return inflated;
    }
  }
}

export const PIXEL_DATA_TAGS = {
  pixelData: 0x7fe00010,
  floatPixelData: 0x7fe00008,
  doubleFloatPixelData: 0x7fe00009,
} as const;
const PIXEL_TAGS: ReadonlySet<number> = new Set(Object.values(PIXEL_DATA_TAGS));

/** Bounds of one read, from the configuration (config.ts). */
export interface DicomReadLimits {
  /** The largest instance read; a deflated dataset inflates to at most four times this. */
  maxInstanceBytes?: number;
  /**
   * Only the attributes are wanted, not the pixels (reading a file to file it): a deflated dataset
   * is inflated up to its top-level pixel data, whose value is then not checked nor laid out.
   */
  isHeadOnly?: boolean;
}

export interface DicomLayout {
  transferSyntaxUid: string;
  /** Where the dataset starts in the file, after the File Meta Information. */
  datasetStart: number;
  /** The bytes the dataset lies in: the file itself, or the inflated dataset of a deflated file. */
  dataset: Uint8Array;
  littleEndian: boolean;
  /** The top-level pixel data elements, by tag. */
  pixelData: Map<number, ValueLayout>;
  opaqueSequences: OpaqueSequence[];
}

function readUid(bytes: Uint8Array, layout: ValueLayout | undefined): string | undefined {
  if (layout?.kind !== 'native') {
    return undefined;
  }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset + layout.offset, layout.length).toString('latin1');
  return text.replace(/[\0 ]+$/, '');
}

/** Walks the File Meta Information and returns where the dataset starts and its transfer syntax. */
function walkMeta(bytes: Uint8Array): { datasetStart: number; transferSyntaxUid: string } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const walk: Walk = {
    bytes,
    view,
    littleEndian: true,
    explicitVr: true,
    wanted: new Set([0x00020010]),
    found: new Map(),
    canRewrite: false,
    opaqueSequences: [],
    elements: 0,
  };
  let datasetStart: number;
  need(bytes.length >= 140);
  if (readTag(walk, 132) === 0x00020000) {
    // dcmjs takes the group to be exactly as long as its group length says.
    need(bytes.length >= 144);
    datasetStart = 144 + view.getUint32(140, true);
    need(datasetStart <= bytes.length);
    walkDataset(walk, 144, datasetStart, 0);
  } else {
    // Without a group length dcmjs reads elements until one lies past group 0002, reading that one
    // too (as explicit little endian) before it steps back: its length must fit as well.
    let at = 132;
    for (;;) {
      const tag = readTag(walk, at);
      const next = walkElement(walk, at, bytes.length, 0);
      if (tag > 0x00030000) {
        break;
      }
      at = next;
      need(at + 4 <= bytes.length);
    }
    datasetStart = at;
  }
  const transferSyntaxUid = readUid(bytes, walk.found.get(0x00020010));
  need(transferSyntaxUid !== undefined && transferSyntaxUid !== '');
  return { datasetStart, transferSyntaxUid };
}

/** Checks a whole Part 10 file and returns where its pixel data lies; throws DicomReadError. */
export function checkDicomLayout(
  bytes: Uint8Array,
  { maxInstanceBytes = DEFAULT_MAX_INSTANCE_BYTES, isHeadOnly = false }: DicomReadLimits = {},
): DicomLayout {
  if (
    bytes.length < 132 ||
    Buffer.from(bytes.buffer, bytes.byteOffset + 128, 4).toString('latin1') !== 'DICM'
  ) {
    throw new DicomReadError(STUDY_MESSAGES.notDicom);
  }
  const { datasetStart, transferSyntaxUid } = walkMeta(bytes);
  const isDeflated = transferSyntaxUid === TRANSFER_SYNTAX.deflatedLittleEndian;
  const newWalk = (dataset: Uint8Array): Walk => ({
    bytes: dataset,
    view: new DataView(dataset.buffer, dataset.byteOffset, dataset.byteLength),
    littleEndian: transferSyntaxUid !== TRANSFER_SYNTAX.explicitBigEndian,
    explicitVr: transferSyntaxUid !== TRANSFER_SYNTAX.implicitLittleEndian,
    wanted: PIXEL_TAGS,
    found: new Map(),
    // dcmjs reads a copy of an inflated dataset (dicom-parser.ts), in which a VR can be rewritten.
    canRewrite: true,
    opaqueSequences: [],
    elements: 0,
    stopAtPixels: isDeflated && isHeadOnly,
  });
  let dataset = bytes;
  let from = datasetStart;
  let walk = newWalk(dataset);
  if (isDeflated && isHeadOnly) {
    from = 0;
    dataset = inflateHead(bytes.subarray(datasetStart), (head) => {
      // Whole when the walk reaches the pixel data; a walk that runs out of bytes needs more.
      const tried = newWalk(head);
      try {
        walkDataset(tried, 0, head.length, 0);
      } catch (err) {
        if (err instanceof DicomReadError && err.reason === STUDY_MESSAGES.unreadable) {
          return false;
        }
        throw err;
      }
      walk = tried;
      return tried.found.size > 0;
    });
    if (walk.bytes !== dataset) {
      walk = newWalk(dataset);
      walkDataset(walk, from, dataset.length, 0);
    }
  } else {
    if (isDeflated) {
      dataset = inflateDataset(bytes.subarray(datasetStart), maxInflatedBytes(maxInstanceBytes));
      from = 0;
      walk = newWalk(dataset);
    }
    walkDataset(walk, from, dataset.length, 0);
  }
  const littleEndian = walk.littleEndian;
  return {
    transferSyntaxUid,
    datasetStart,
    dataset,
    littleEndian,
    pixelData: walk.found,
    opaqueSequences: walk.opaqueSequences,
  };
}
