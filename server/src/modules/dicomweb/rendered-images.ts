import { buffer } from 'node:stream/consumers';
import sharp from 'sharp';
import '../../lib/sharp-setup.js';
import { DicomReadError } from '../dicom/dicom-read-error.js';
import { renderFrame } from '../dicom/render-preview.js';
import type { Storage } from '../storage/storage.js';

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

/** One frame (1-based) of a stored instance, windowed as in the preview; undefined when it has no such image. */
export async function renderStoredFrame(
  storage: Storage,
  storageKey: string,
  frameNumber: number,
  type: RenderedType,
  maxPixels: number,
): Promise<Buffer | undefined> {
  const bytes = await buffer(await storage.read(storageKey));
  try {
    const frame = await renderFrame(bytes, frameNumber - 1, maxPixels);
    return await encode(
      sharp(frame.rgba, { raw: { width: frame.width, height: frame.height, channels: 4 } }),
      type,
    );
  } catch (err) {
    if (err instanceof DicomReadError || err instanceof RangeError) {
      return undefined;
    }
    throw err;
  }
}

/** A stored thumbnail (WebP) in the type the client asked for. */
export async function convertStoredImage(storage: Storage, key: string, type: RenderedType): Promise<Buffer> {
  return encode(sharp(await buffer(await storage.read(key))), type);
}
