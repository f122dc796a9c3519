import sharp from 'sharp';
import '../../lib/sharp-setup.js';
import { DecodeOverLimit, type DecodePool } from '../dicom/index.js';
import { DicomReadError } from '../dicom/index.js';
import { FrameNotFound } from '../dicom/index.js';
import { isOverBounds } from './decode-refusals.js';
import type { Storage } from '../storage/index.js';

/** The media types `rendered` and `thumbnail` answer with (PS3.18 10.4.1.1.3), by the Accept header. */
export type RenderedType = 'image/jpeg' | 'image/png';

/** JPEG unless the client asks for PNG and not JPEG; undefined when it accepts neither (406). */
export function renderedTypeOf(accept: string | undefined): RenderedType | undefined {
  const types = (accept ?? '*/*').split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  if (types.some((type) => type === 'image/jpeg' || type === 'image/*' || type === '*/*')) {
    return 'image/jpeg';
  }
  return types.includes('image/png') ? 'image/png' : undefined;
}

function encode(image: sharp.Sharp, type: RenderedType): Promise<Buffer> {
  return (type === 'image/png' ? image.png() : image.jpeg({ quality: 90 })).toBuffer();
}

/**
 * One frame (1-based) of a stored instance, windowed as in the preview, rendered and encoded on a
 * decode thread; undefined when it has no such image. Throws DecodeOverLimit for a file larger than
 * a read takes (before reading it) and whatever else the decode threads refuse (decode-refusals.ts).
 */
export async function renderStoredFrame(
  decoder: DecodePool,
  storage: Storage,
  instance: { storageKey: string; size: number; rows: number | null; columns: number | null },
  frameNumber: number,
  type: RenderedType,
): Promise<Buffer | undefined> {
  if (instance.size > decoder.maxInstanceBytes) {
    throw new DecodeOverLimit('The file is larger than the largest instance read.');
  }
  if (decoder.isOverPixelBound(instance)) {
    throw new DecodeOverLimit('The image is too large to render.');
  }
  const bytes = await storage.readAll(instance.storageKey);
  try {
    return await decoder.renderEncoded(bytes, frameNumber - 1, type);
  } catch (err) {
    // A file that is no image, or has no such frame; one past the read bounds is answered 413.
    if ((err instanceof DicomReadError && !isOverBounds(err)) || err instanceof FrameNotFound) {
      return undefined;
    }
    throw err;
  }
}

/** A stored thumbnail (WebP) in the type the client asked for. */
export async function convertStoredImage(storage: Storage, key: string, type: RenderedType): Promise<Buffer> {
  return encode(sharp(await storage.readAll(key)), type);
}
