import type { Storage } from '../storage/index.js';
import { DEFAULT_MAX_TOTAL_FRAME_BYTES, FrameNotFound, FramesTooLarge } from '../dicom/index.js';

/** What ingest recorded of an instance's uncompressed frames (dicom-instance.ts NativeFrames). */
export interface StoredFrames {
  storageKey: string;
  numberOfFrames: number;
  pixelDataOffset: number | null;
  frameBytes: number | null;
}

/**
 * The frames (little endian, as Explicit VR Little Endian sends them) of an instance whose
 * uncompressed frames lie as plain runs of bytes in its file: each read from storage by its byte
 * range, without reading or parsing the rest of the file. Undefined
 * when ingest found no such runs (compressed, big endian, deflated or bit-packed pixels).
 */
export async function readNativeFrames(
  storage: Storage,
  instance: StoredFrames,
  frameNumbers: number[],
): Promise<Uint8Array[] | undefined> {
  const { pixelDataOffset: offset, frameBytes } = instance;
  if (offset === null || frameBytes === null) {
    return undefined;
  }
  if (frameNumbers.some((frame) => frame > instance.numberOfFrames)) {
    throw new FrameNotFound(`The image has frames 1 to ${instance.numberOfFrames} only.`);
  }
  const wanted = [...new Set(frameNumbers)];
  if (wanted.length * frameBytes > DEFAULT_MAX_TOTAL_FRAME_BYTES) {
    throw new FramesTooLarge('The frames asked for are too large to send at once; ask for fewer.');
  }
  const byNumber = new Map<number, Uint8Array>();
  for (const frame of wanted) {
    const start = offset + (frame - 1) * frameBytes;
    const bytes = await storage.readBytes(instance.storageKey, { start, end: start + frameBytes - 1 });
    if (bytes.length < frameBytes) {
      throw new FrameNotFound(`Frame ${frame} is missing from the stored file.`);
    }
    byNumber.set(frame, bytes);
  }
  return frameNumbers.map((frame) => byNumber.get(frame)!);
}
