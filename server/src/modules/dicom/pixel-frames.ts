import { STUDY_MESSAGES } from '@ra/shared';
import { DicomReadError, PREVIEW_MESSAGES } from './dicom-read-error.js';
import type { DicomLayout, ValueLayout } from './dicom-structure.js';

type NativeValue = Extract<ValueLayout, { kind: 'native' }>;

export interface FrameGeometry {
  rows: number;
  columns: number;
  samplesPerPixel: number;
  bitsAllocated: number;
  photometricInterpretation: string;
  numberOfFrames: number;
}

/** Bits one uncompressed frame takes; YBR_FULL_422 stores two samples per pixel (PS3.3 C.7.6.3.1.2). */
function frameBits(geometry: FrameGeometry): number {
  const samples = geometry.photometricInterpretation === 'YBR_FULL_422' ? 2 : geometry.samplesPerPixel;
  return geometry.rows * geometry.columns * samples * geometry.bitsAllocated;
}

/** Copies `count` bits starting at bit `start` (bits fill each byte from its lowest bit, PS3.5 8.1.1). */
function copyBits(source: Uint8Array, start: number, count: number): Uint8Array {
  const target = new Uint8Array(Math.ceil(count / 8));
  for (let bit = 0; bit < count; bit += 1) {
    const from = start + bit;
    if ((source[from >>> 3]! >>> (from & 7)) & 1) {
      target[bit >>> 3]! |= 1 << (bit & 7);
    }
  }
  return target;
}

/**
 * The pixel data in little-endian order. Big endian reverses each OW word, or each whole sample when
 * samples are wider (dcmjs-imaging swaps only 16-bit halves of a 32-bit sample, so it is done here).
 */
function littleEndianPixels(
  dataset: Uint8Array,
  value: NativeValue,
  bitsAllocated: number,
  isBigEndian: boolean,
) {
  const pixels = dataset.subarray(value.offset, value.offset + value.length);
  const unit = value.vr === 'OB' || value.vr === 'UN' ? 1 : Math.max(2, bitsAllocated / 8);
  if (!isBigEndian || unit === 1) {
    return pixels;
  }
  const swapped = Buffer.from(pixels.subarray(0, pixels.length - (pixels.length % unit)));
  return unit === 2 ? swapped.swap16() : unit === 4 ? swapped.swap32() : swapped.swap64();
}

function nativeFrame(pixels: Uint8Array, geometry: FrameGeometry, frame: number): Uint8Array {
  const bits = frameBits(geometry);
  if ((frame + 1) * bits > pixels.length * 8) {
    // The pixel data is shorter than the frames its header announces.
    throw new DicomReadError(STUDY_MESSAGES.unreadable);
  }
  // Single-bit frames follow each other bit by bit, so only every eighth frame starts on a byte.
  return bits % 8 === 0
    ? pixels.slice((frame * bits) / 8, ((frame + 1) * bits) / 8)
    : copyBits(pixels, frame * bits, bits);
}

function encapsulatedFrame(
  dataset: Uint8Array,
  value: Extract<ValueLayout, { kind: 'encapsulated' }>,
  frames: number,
  frame: number,
): Uint8Array {
  const { offsetTable, fragments } = value;
  let parts: typeof fragments;
  if (frames === 1) {
    parts = fragments;
  } else if (offsetTable.length === frames) {
    const start = offsetTable[frame]!;
    const end = offsetTable[frame + 1] ?? Number.POSITIVE_INFINITY;
    parts = fragments.filter((fragment) => fragment.itemOffset >= start && fragment.itemOffset < end);
  } else if (fragments.length === frames) {
    parts = [fragments[frame]!];
  } else {
    // Several fragments per frame and no offset table to tell where each frame starts.
    throw new DicomReadError(PREVIEW_MESSAGES.notRenderable);
  }
  if (parts.length === 0) {
    throw new DicomReadError(STUDY_MESSAGES.unreadable);
  }
  return Buffer.concat(parts.map((part) => dataset.subarray(part.offset, part.offset + part.length)));
}

/**
 * The bytes of one frame: its uncompressed pixels in little-endian order, or its compressed
 * codestream. Copied out of the file, so the decoder sees one frame, never all the pixel data.
 */
export function extractFrame(
  layout: Pick<DicomLayout, 'dataset' | 'littleEndian'>,
  value: ValueLayout,
  geometry: FrameGeometry,
  frame: number,
): Uint8Array {
  if (!Number.isInteger(frame) || frame < 0 || frame >= geometry.numberOfFrames) {
    throw new RangeError(`Frame ${frame} is not among the ${geometry.numberOfFrames} frames of the image.`);
  }
  if (value.kind === 'encapsulated') {
    return encapsulatedFrame(layout.dataset, value, geometry.numberOfFrames, frame);
  }
  const pixels = littleEndianPixels(layout.dataset, value, geometry.bitsAllocated, !layout.littleEndian);
  return nativeFrame(pixels, geometry, frame);
}

/**
 * Colour samples wider than 8 bits, scaled to 8 by their stored bits. dcmjs-imaging 0.2.5 reads every
 * colour frame as bytes, so a 16-bit RGB frame would otherwise render as noise.
 */
export function toEightBitSamples(frame: Uint8Array, bitsAllocated: number, bitsStored: number): Uint8Array {
  const bytes = bitsAllocated / 8;
  const view = new DataView(frame.buffer, frame.byteOffset, frame.byteLength);
  const samples = new Uint8Array(Math.floor(frame.length / bytes));
  const shift = Math.max(0, Math.min(bitsStored, bitsAllocated) - 8);
  for (let i = 0; i < samples.length; i += 1) {
    const value = bytes === 2 ? view.getUint16(i * 2, true) : view.getUint32(i * 4, true);
    samples[i] = (value >>> shift) & 0xff;
  }
  return samples;
}
