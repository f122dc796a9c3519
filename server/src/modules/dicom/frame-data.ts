import type { DcmjsDataset } from 'dcmjs';
import { parseDicom } from './dicom-parser.js';
import { DicomReadError } from './dicom-read-error.js';
import { PIXEL_DATA_TAGS, TRANSFER_SYNTAX } from './dicom-structure.js';
import { readInteger, readString } from './dicom-values.js';
import { decodedFrameBytes, decodeFrame, isDecodable, type ImageAttributes } from './frame-data-codecs.js';
import { FrameNotDecodable, FrameNotFound, FramesTooLarge } from './frame-data-errors.js';
import { extractFrame, type FrameGeometry } from './pixel-frames.js';

export { FrameNotDecodable, FrameNotFound, FramesTooLarge } from './frame-data-errors.js';

/** The frames of one instance as WADO-RS sends them (PS3.18 8.7.3.5). */
export interface FramePayload {
  /** The transfer syntax the frames are in: Explicit VR Little Endian for uncompressed frames. */
  transferSyntaxUid: string;
  /** One per frame number asked for, in that order; a number asked twice gives the same array twice. */
  frames: Uint8Array[];
  /** As the frames are: RGB where a colour JPEG or JPEG 2000 was decoded with its YCbCr undone. */
  photometricInterpretation: string;
  /** Colour frames: 0 (colour-by-pixel) once decoded, else as stored; null with one sample per pixel. */
  planarConfiguration: number | null;
}

export interface ReadFramesOptions {
  /** Uncompressed frames wanted (plain application/octet-stream); false gives frames as stored. */
  decompress: boolean;
  /** Largest frame, in samples (Rows × Columns × Samples per Pixel): decoders allocate what headers claim. */
  maxPixels: number;
  /** Largest total of the distinct frames returned, in bytes (default 1 GiB). */
  maxTotalBytes?: number;
  /** The largest instance read (config.ts): a deflated dataset inflates to at most four times this. */
  maxInstanceBytes?: number;
}

export const DEFAULT_MAX_TOTAL_FRAME_BYTES = 1024 ** 3;

function readImage(dataset: DcmjsDataset): ImageAttributes & { numberOfFrames: number } {
  const bitsAllocated = readInteger(dataset, '00280100') ?? 0;
  return {
    rows: readInteger(dataset, '00280010') ?? 0,
    columns: readInteger(dataset, '00280011') ?? 0,
    samplesPerPixel: Math.max(1, readInteger(dataset, '00280002') ?? 1),
    bitsAllocated,
    bitsStored: readInteger(dataset, '00280101') ?? bitsAllocated,
    pixelRepresentation: readInteger(dataset, '00280103') ?? 0,
    photometricInterpretation: readString(dataset, '00280004'),
    planarConfiguration: readInteger(dataset, '00280006') ?? 0,
    numberOfFrames: Math.max(1, readInteger(dataset, '00280008') ?? 1),
  };
}

/** Bytes of one uncompressed frame as stored; YBR_FULL_422 keeps two samples per pixel (as pixel-frames.ts). */
function storedFrameBytes(image: ImageAttributes): number {
  const samples = image.photometricInterpretation === 'YBR_FULL_422' ? 2 : image.samplesPerPixel;
  return Math.ceil((image.rows * image.columns * samples * image.bitsAllocated) / 8);
}

/**
 * Reads frames of a Part 10 file for WADO-RS, frame numbers counting from 1 as in the URL.
 *
 * Uncompressed files give their frames in little-endian order, whatever the file's byte order or
 * deflation, labelled Explicit VR Little Endian. Compressed files give each frame's codestream (its
 * fragments joined) under the file's transfer syntax, or, with `decompress`, the decoded samples
 * (RLE, JPEG baseline, extended and lossless, JPEG-LS, JPEG 2000), colour-by-pixel.
 *
 * Throws FrameNotFound (a number outside 1…Number of Frames, none asked, not an image),
 * FramesTooLarge, FrameNotDecodable, and DicomReadError for a file that cannot be read at all.
 */
export async function readFrames(
  bytes: Uint8Array,
  frameNumbers: number[],
  options: ReadFramesOptions,
): Promise<FramePayload> {
  const { layout, dataset } = parseDicom(bytes, { maxInstanceBytes: options.maxInstanceBytes });
  const value =
    layout.pixelData.get(PIXEL_DATA_TAGS.pixelData) ??
    layout.pixelData.get(PIXEL_DATA_TAGS.floatPixelData) ??
    layout.pixelData.get(PIXEL_DATA_TAGS.doubleFloatPixelData);
  const image = readImage(dataset);
  if (!value || !image.rows || !image.columns || !image.bitsAllocated) {
    throw new FrameNotFound('The instance is not an image: it has no frames.');
  }
  const wanted = [...new Set(frameNumbers)];
  const isOutOfRange = (frame: number) =>
    !Number.isInteger(frame) || frame < 1 || frame > image.numberOfFrames;
  if (wanted.length === 0 || wanted.some(isOutOfRange)) {
    throw new FrameNotFound(`The image has frames 1 to ${image.numberOfFrames} only.`);
  }
  if (image.rows * image.columns * image.samplesPerPixel > options.maxPixels) {
    throw new FramesTooLarge('The frames are larger than the decoder accepts.');
  }

  const isCompressed = value.kind === 'encapsulated';
  const isDecoding = isCompressed && options.decompress;
  if (isDecoding && !isDecodable(layout.transferSyntaxUid)) {
    throw new FrameNotDecodable(`No decoder here reads transfer syntax ${layout.transferSyntaxUid}.`);
  }
  // A codestream is no larger than the file; decoded or copied frames are counted before any is made.
  const frameBytes = isDecoding ? decodedFrameBytes(image) : isCompressed ? 0 : storedFrameBytes(image);
  if (wanted.length * frameBytes > (options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_FRAME_BYTES)) {
    throw new FramesTooLarge('The frames asked for are too large to send at once; ask for fewer.');
  }

  const geometry: FrameGeometry = { ...image };
  let photometricInterpretation = image.photometricInterpretation;
  const byNumber = new Map<number, Uint8Array>();
  for (const frameNumber of wanted) {
    let frame: Uint8Array;
    try {
      frame = extractFrame(layout, value, geometry, frameNumber - 1);
    } catch (error) {
      if (error instanceof DicomReadError) {
        throw new FrameNotDecodable(`Frame ${frameNumber} cannot be taken out of the pixel data.`, {
          cause: error,
        });
      }
      throw error;
    }
    if (isDecoding) {
      const decoded = await decodeFrame(layout.transferSyntaxUid, frame, image);
      frame = decoded.pixels;
      photometricInterpretation = decoded.photometricInterpretation;
    }
    byNumber.set(frameNumber, frame);
  }
  const isColour = image.samplesPerPixel > 1;
  return {
    transferSyntaxUid:
      isCompressed && !isDecoding ? layout.transferSyntaxUid : TRANSFER_SYNTAX.explicitLittleEndian,
    frames: frameNumbers.map((frameNumber) => byNumber.get(frameNumber)!),
    photometricInterpretation,
    planarConfiguration: !isColour ? null : isDecoding ? 0 : image.planarConfiguration,
  };
}
