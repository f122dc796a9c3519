import { STUDY_MESSAGES } from '@ra/shared';
import { DicomReadError } from './dicom-read-error.js';

/**
 * Decodes one RLE Lossless frame (PS3.5 Annex G) to uncompressed little-endian samples, interleaved
 * colour-by-pixel. Done here because dcmjs-imaging 0.2.5 hands the renderer RLE colour frames plane
 * by plane while telling it they are interleaved, which scrambles every colour RLE image.
 *
 * The frame starts with a 64-byte header: the number of segments and up to 15 segment offsets. There
 * is one segment per byte of each sample, the most significant byte first; each segment is PackBits.
 */
export function decodeRleFrame(
  encoded: Uint8Array,
  geometry: { rows: number; columns: number; samplesPerPixel: number; bitsAllocated: number },
): Uint8Array {
  const { rows, columns, samplesPerPixel } = geometry;
  const bytesPerSample = geometry.bitsAllocated / 8;
  const segmentCount = samplesPerPixel * bytesPerSample;
  const view = new DataView(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  const isValid = Number.isInteger(bytesPerSample) && segmentCount <= 15 && encoded.length >= 64;
  if (!isValid || view.getUint32(0, true) !== segmentCount) {
    throw new DicomReadError(STUDY_MESSAGES.unreadable);
  }
  const pixels = rows * columns;
  const decoded = new Uint8Array(pixels * segmentCount);
  for (let segment = 0; segment < segmentCount; segment += 1) {
    const start = view.getUint32(4 + 4 * segment, true);
    const end = segment + 1 < segmentCount ? view.getUint32(8 + 4 * segment, true) : encoded.length;
    if (start < 64 || end < start || end > encoded.length) {
      throw new DicomReadError(STUDY_MESSAGES.unreadable);
    }
    const sample = Math.floor(segment / bytesPerSample);
    // Segments give the most significant byte first; little endian stores it last.
    const byte = bytesPerSample - 1 - (segment % bytesPerSample);
    let target = sample * bytesPerSample + byte;
    let at = start;
    while (at < end && target < decoded.length) {
      const header = encoded[at]!;
      if (header < 128) {
        // header + 1 literal bytes follow.
        const count = Math.min(header + 1, end - at - 1);
        for (let i = 1; i <= count && target < decoded.length; i += 1, target += segmentCount) {
          decoded[target] = encoded[at + i]!;
        }
        at += 1 + count;
      } else if (header > 128 && at + 1 < end) {
        // The next byte, repeated 257 - header times (1 - n for the header n read as a signed byte).
        const value = encoded[at + 1]!;
        for (let i = 0; i < 257 - header && target < decoded.length; i += 1, target += segmentCount) {
          decoded[target] = value;
        }
        at += 2;
      } else {
        // 128 is a no-op; a repeat header as the segment's last byte has nothing to repeat.
        at += 1;
      }
    }
  }
  return decoded;
}
