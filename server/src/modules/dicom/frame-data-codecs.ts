import { DicomReadError } from './dicom-read-error.js';
import { readJ2kHeader, readJpegHeader, type JpegHeader } from './frame-data-codestreams.js';
import { FrameNotDecodable } from './frame-data-errors.js';
import { withPixelDecoder, type CodecFrame, type FrameCodecs } from './pixel-decoder.js';
import { decodeRleFrame } from './rle-decoder.js';

/** The image attributes a frame is decoded by. */
export interface ImageAttributes {
  rows: number;
  columns: number;
  samplesPerPixel: number;
  bitsAllocated: number;
  bitsStored: number;
  pixelRepresentation: number;
  photometricInterpretation: string;
  /** 0 colour-by-pixel, 1 colour-by-plane (PS3.3 C.7.6.3.1.3). */
  planarConfiguration: number;
}

/** A decoded frame: little-endian samples, colour-by-pixel, and the photometric interpretation they now have. */
export interface DecodedFrame {
  pixels: Uint8Array;
  photometricInterpretation: string;
}

export const COMPRESSED_SYNTAX = {
  rleLossless: '1.2.840.10008.1.2.5',
  jpegBaseline: '1.2.840.10008.1.2.4.50',
  jpegExtended: '1.2.840.10008.1.2.4.51',
  jpegLossless: '1.2.840.10008.1.2.4.57',
  jpegLosslessFirstOrder: '1.2.840.10008.1.2.4.70',
  jpegLsLossless: '1.2.840.10008.1.2.4.80',
  jpegLsNearLossless: '1.2.840.10008.1.2.4.81',
  jpeg2000Lossless: '1.2.840.10008.1.2.4.90',
  jpeg2000: '1.2.840.10008.1.2.4.91',
} as const;
const DECODABLE: ReadonlySet<string> = new Set(Object.values(COMPRESSED_SYNTAX));

export function isDecodable(transferSyntaxUid: string): boolean {
  return DECODABLE.has(transferSyntaxUid);
}

/** Bytes of one decoded frame: whole bytes per sample, every sample of every pixel. */
export function decodedFrameBytes(image: ImageAttributes): number {
  return image.rows * image.columns * image.samplesPerPixel * Math.ceil(image.bitsAllocated / 8);
}

/** Bits Allocated a decoder produces for a sample precision: one byte up to 8 bits, two up to 16. */
function allocatedFor(precision: number): number | undefined {
  return precision >= 2 && precision <= 8 ? 8 : precision <= 16 ? 16 : undefined;
}

function mismatch(what: string): FrameNotDecodable {
  return new FrameNotDecodable(`The codestream's ${what} does not match the image's attributes.`);
}

function codecFrame(image: ImageAttributes): CodecFrame {
  return {
    getWidth: () => image.columns,
    getHeight: () => image.rows,
    getBitsAllocated: () => image.bitsAllocated,
    getBitsStored: () => image.bitsStored || image.bitsAllocated,
    getSamplesPerPixel: () => image.samplesPerPixel,
    getPixelRepresentation: () => image.pixelRepresentation,
    // The decoders used here ignore both; they need only be values the codecs accept.
    getPlanarConfiguration: () => 0,
    getPhotometricInterpretation: () => (image.samplesPerPixel === 1 ? 'MONOCHROME2' : 'RGB'),
  };
}

function checkJpegHeader(header: JpegHeader | undefined, image: ImageAttributes): JpegHeader {
  if (!header) {
    throw new FrameNotDecodable('The frame is not a JPEG codestream.');
  }
  if (header.rows !== image.rows || header.columns !== image.columns) {
    throw mismatch('size');
  }
  if (header.components.length !== image.samplesPerPixel) {
    throw mismatch('component count');
  }
  if (allocatedFor(header.precision) !== image.bitsAllocated) {
    throw mismatch('sample precision');
  }
  return header;
}

/**
 * Whether a lossy colour JPEG holds YCbCr to be turned into RGB. The photometric interpretation says
 * so, except that some writers label YCbCr samples RGB: a JFIF segment or subsampled chroma gives
 * them away, while RGB stored as such carries neither (and libjpeg, told to convert, would wrongly
 * treat it as YCbCr unless an Adobe segment says otherwise).
 */
function isYcbcrJpeg(header: JpegHeader, image: ImageAttributes): boolean {
  if (image.samplesPerPixel !== 3 || image.pixelRepresentation !== 0 || header.adobeTransform === 0) {
    return false;
  }
  const [luminance, ...chroma] = header.components;
  const isSubsampled = chroma.some(
    (component) =>
      component.horizontalSampling < luminance!.horizontalSampling ||
      component.verticalSampling < luminance!.verticalSampling,
  );
  return image.photometricInterpretation.startsWith('YBR') || header.hasJfif || isSubsampled;
}

/** Colour-by-plane samples (each component's plane after the other) made colour-by-pixel. */
function interleave(planes: Uint8Array, image: ImageAttributes): Uint8Array {
  const bytes = Math.ceil(image.bitsAllocated / 8);
  const pixels = image.rows * image.columns;
  const interleaved = new Uint8Array(planes.length);
  for (let sample = 0; sample < image.samplesPerPixel; sample += 1) {
    for (let pixel = 0; pixel < pixels; pixel += 1) {
      const from = (sample * pixels + pixel) * bytes;
      interleaved.set(planes.subarray(from, from + bytes), (pixel * image.samplesPerPixel + sample) * bytes);
    }
  }
  return interleaved;
}

type Decode = (codecs: FrameCodecs) => Uint8Array;

/** What to call for a codestream, once it is known to agree with the image, and what it yields. */
function planDecode(
  transferSyntaxUid: string,
  codestream: Uint8Array,
  image: ImageAttributes,
): { decode: Decode; photometricInterpretation: string; isPlanar?: boolean } {
  const frame = codecFrame(image);
  const { photometricInterpretation } = image;
  switch (transferSyntaxUid) {
    case COMPRESSED_SYNTAX.jpegBaseline:
    case COMPRESSED_SYNTAX.jpegExtended:
    case COMPRESSED_SYNTAX.jpegLossless:
    case COMPRESSED_SYNTAX.jpegLosslessFirstOrder: {
      const header = checkJpegHeader(readJpegHeader(codestream), image);
      const isLossy =
        transferSyntaxUid === COMPRESSED_SYNTAX.jpegBaseline ||
        transferSyntaxUid === COMPRESSED_SYNTAX.jpegExtended;
      const toRgb = isLossy && isYcbcrJpeg(header, image);
      return {
        decode: (codecs) => codecs.decodeJpeg(frame, codestream, { convertColorspaceToRgb: toRgb }),
        photometricInterpretation: toRgb ? 'RGB' : photometricInterpretation,
      };
    }
    case COMPRESSED_SYNTAX.jpegLsLossless:
    case COMPRESSED_SYNTAX.jpegLsNearLossless: {
      const { firstScan } = checkJpegHeader(readJpegHeader(codestream), image);
      // Without interleaving (one component per scan) CharLS returns the components plane by plane.
      const isPlanar =
        image.samplesPerPixel > 1 && (firstScan.componentCount === 1 || firstScan.interleaveMode === 0);
      return {
        decode: (codecs) => codecs.decodeJpegLs(frame, codestream),
        photometricInterpretation,
        isPlanar,
      };
    }
    case COMPRESSED_SYNTAX.jpeg2000Lossless:
    case COMPRESSED_SYNTAX.jpeg2000: {
      const header = readJ2kHeader(codestream);
      if (!header) {
        throw new FrameNotDecodable('The frame is not a JPEG 2000 codestream.');
      }
      if (header.rows !== image.rows || header.columns !== image.columns) {
        throw mismatch('size');
      }
      if (header.components.length !== image.samplesPerPixel || ![1, 3].includes(image.samplesPerPixel)) {
        throw mismatch('component count');
      }
      // OpenJPEG's output is copied out at one component's size; colour is copied as bytes only.
      const isWhole = header.components.every(
        (component) => component.horizontalSeparation === 1 && component.verticalSeparation === 1,
      );
      const isSupportedDepth = header.components.every(
        (component) =>
          allocatedFor(component.precision) === image.bitsAllocated &&
          (image.samplesPerPixel === 1 || component.precision <= 8),
      );
      if (!isWhole || !isSupportedDepth) {
        throw mismatch('component layout');
      }
      return {
        decode: (codecs) => codecs.decodeJpeg2000(frame, codestream),
        photometricInterpretation:
          image.samplesPerPixel === 3 && header.hasColourTransform ? 'RGB' : photometricInterpretation,
      };
    }
    default:
      throw new FrameNotDecodable(`No decoder here reads transfer syntax ${transferSyntaxUid}.`);
  }
}

/**
 * Decodes one compressed frame (RLE, JPEG, JPEG-LS, JPEG 2000) to little-endian samples, colour-by-pixel.
 * Throws FrameNotDecodable when no codec here reads the syntax, when the codestream disagrees with the
 * image's attributes, or when the codec fails.
 */
export async function decodeFrame(
  transferSyntaxUid: string,
  codestream: Uint8Array,
  image: ImageAttributes,
): Promise<DecodedFrame> {
  const expectedBytes = decodedFrameBytes(image);
  let pixels: Uint8Array;
  let { photometricInterpretation } = image;
  if (transferSyntaxUid === COMPRESSED_SYNTAX.rleLossless) {
    try {
      pixels = decodeRleFrame(codestream, image);
    } catch (error) {
      if (error instanceof DicomReadError) {
        throw new FrameNotDecodable('The RLE frame cannot be decoded.', { cause: error });
      }
      throw error;
    }
  } else {
    const plan = planDecode(transferSyntaxUid, codestream, image);
    // A codec's failure is the frame's; a failure to load the codecs is the server's and passes as is.
    pixels = await withPixelDecoder((codecs) => {
      try {
        return plan.decode(codecs);
      } catch (error) {
        throw new FrameNotDecodable('The codec could not decode the frame.', { cause: error });
      }
    });
    if (pixels.length === expectedBytes && plan.isPlanar) {
      pixels = interleave(pixels, image);
    }
    photometricInterpretation = plan.photometricInterpretation;
  }
  if (pixels.length !== expectedBytes) {
    throw mismatch(`decoded size (${pixels.length} bytes, not ${expectedBytes})`);
  }
  return { pixels, photometricInterpretation };
}
