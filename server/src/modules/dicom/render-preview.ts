import dcmjs from 'dcmjs';
import sharp from 'sharp';
import '../../lib/sharp-setup.js';
import { assertRenderable } from './dicom-instance.js';
import { parseDicom } from './dicom-parser.js';
import { DicomReadError, PREVIEW_MESSAGES } from './dicom-read-error.js';
import { PIXEL_DATA_TAGS, TRANSFER_SYNTAX, type DicomReadLimits } from './dicom-structure.js';
import { readInteger, readString } from './dicom-values.js';
import { DicomImage, withPixelDecoder } from './pixel-decoder.js';
import { extractFrame, toEightBitSamples, type FrameGeometry } from './pixel-frames.js';
import { decodeRleFrame } from './rle-decoder.js';

/** One frame rendered for display: 8-bit RGBA, Columns × Rows. */
export interface RenderedFrame {
  rgba: Buffer;
  width: number;
  height: number;
}

export interface EncodedPreview {
  /** PNG at full size. */
  preview: Buffer;
  /** WebP fitting inside THUMBNAIL_SIZE × THUMBNAIL_SIZE. */
  thumbnail: Buffer;
  width: number;
  height: number;
}

export const THUMBNAIL_SIZE = 200;
const RLE_LOSSLESS = '1.2.840.10008.1.2.5';

/**
 * Attributes the renderer is not given. Pixel spacing and aspect ratio would make it resample to
 * square pixels, at a size the file chooses; Smallest/Largest Image Pixel Value would set the window
 * from what the file claims rather than from the frame's own pixels.
 */
const WITHHELD = [
  'PixelSpacing',
  'ImagerPixelSpacing',
  'NominalScannedPixelSpacing',
  'PixelAspectRatio',
  'SmallestImagePixelValue',
  'LargestImagePixelValue',
];

/** The frame's own ArrayBuffer when it has one to itself, else a copy (a small Buffer may share a pool). */
function arrayBufferOf(bytes: Uint8Array): ArrayBuffer {
  const isWhole =
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength;
  return isWhole ? bytes.buffer : new Uint8Array(bytes).buffer;
}

/**
 * Renders one frame (0-based) of a DICOM image to 8-bit RGBA. Grayscale is windowed by the file's
 * first Window Center/Width, else by the frame's own range after the rescale; MONOCHROME1 comes out
 * inverted, colour as stored (scaled to 8 bits). Overlays are not drawn. Throws DicomReadError:
 * notDicom, unreadable, or a preview message (no image, too large, a codec that cannot decode it).
 */
export async function renderFrame(
  bytes: Uint8Array,
  frameIndex: number,
  maxPixels: number,
  limits: DicomReadLimits = {},
): Promise<RenderedFrame> {
  const { layout, dataset } = parseDicom(bytes, limits);
  const pixelData =
    layout.pixelData.get(PIXEL_DATA_TAGS.pixelData) ?? layout.pixelData.get(PIXEL_DATA_TAGS.floatPixelData);
  const geometry: FrameGeometry = {
    rows: readInteger(dataset, '00280010') ?? 0,
    columns: readInteger(dataset, '00280011') ?? 0,
    samplesPerPixel: readInteger(dataset, '00280002') ?? 1,
    bitsAllocated: readInteger(dataset, '00280100') ?? 0,
    photometricInterpretation: readString(dataset, '00280004'),
    numberOfFrames: Math.max(1, readInteger(dataset, '00280008') ?? 1),
  };
  assertRenderable({ ...geometry, isImage: pixelData !== undefined }, maxPixels);
  const isSupportedDepth = geometry.bitsAllocated === 1 || [8, 16, 32].includes(geometry.bitsAllocated);
  if (!pixelData || !isSupportedDepth) {
    throw new DicomReadError(PREVIEW_MESSAGES.notRenderable);
  }
  let frame = extractFrame(layout, pixelData, geometry, frameIndex);
  // Uncompressed frames are in little-endian order (pixel-frames.ts), whatever the file's syntax.
  let syntax = pixelData.kind === 'native' ? TRANSFER_SYNTAX.explicitLittleEndian : layout.transferSyntaxUid;
  if (syntax === RLE_LOSSLESS) {
    frame = decodeRleFrame(frame, geometry);
    syntax = TRANSFER_SYNTAX.explicitLittleEndian;
  }

  // Private elements (odd groups) mean nothing to the renderer, and a file can hold millions.
  const standard = Object.fromEntries(
    Object.entries(dataset).filter(([tag]) => parseInt(tag.charAt(3), 16) % 2 === 0),
  );
  const elements = dcmjs.data.DicomMetaDictionary.naturalizeDataset(standard);
  for (const name of WITHHELD) {
    delete elements[name];
  }
  if (
    syntax === TRANSFER_SYNTAX.explicitLittleEndian &&
    geometry.samplesPerPixel > 1 &&
    geometry.bitsAllocated > 8
  ) {
    frame = toEightBitSamples(
      frame,
      geometry.bitsAllocated,
      readInteger(dataset, '00280101') ?? geometry.bitsAllocated,
    );
    Object.assign(elements, { BitsAllocated: 8, BitsStored: 8, HighBit: 7, PixelRepresentation: 0 });
  }
  // The renderer gets this one frame as a single-frame image.
  elements.NumberOfFrames = 1;
  elements[pixelData.tag === PIXEL_DATA_TAGS.pixelData ? 'PixelData' : 'FloatPixelData'] = [
    arrayBufferOf(frame),
  ];
  // Through withPixelDecoder, so a codec that fails on this frame does not break the next ones.
  return withPixelDecoder(() => {
    try {
      const rendered = new DicomImage(elements, syntax).render({ frame: 0, renderOverlays: false });
      return { rgba: Buffer.from(rendered.pixels), width: rendered.width, height: rendered.height };
    } catch (error) {
      throw new DicomReadError(PREVIEW_MESSAGES.notRenderable, { cause: error });
    }
  });
}

function isGrayscale(rgba: Buffer): boolean {
  for (let i = 0; i < rgba.length; i += 4) {
    if (rgba[i] !== rgba[i + 1] || rgba[i] !== rgba[i + 2]) {
      return false;
    }
  }
  return true;
}

/** Encodes a rendered frame as a full-size PNG (one channel when it is gray) and a WebP thumbnail. */
export async function encodePreview(frame: RenderedFrame): Promise<EncodedPreview> {
  const { width, height } = frame;
  // The frame is ours and already held to the pixel limit, so sharp's own input limit does not apply.
  const image = () =>
    sharp(frame.rgba, { raw: { width, height, channels: 4 }, limitInputPixels: false }).removeAlpha();
  const full = isGrayscale(frame.rgba) ? image().toColourspace('b-w') : image();
  const [preview, thumbnail] = await Promise.all([
    full.png().toBuffer(),
    image()
      .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer(),
  ]);
  return { preview, thumbnail, width, height };
}
