import fsp from 'node:fs/promises';
import sharp from 'sharp';
import { stripJpegMetadata } from './jpeg-metadata.js';

export interface StoredImageFile {
  width: number;
  height: number;
  size: number;
}

/** Re-encodes without any metadata (sharp keeps none unless asked), losslessly where the format allows. */
function reencode(contentType: string, pipeline: sharp.Sharp): sharp.Sharp {
  switch (contentType) {
    case 'image/png':
      return pipeline.png({ compressionLevel: 9 });
    case 'image/webp':
      return pipeline.webp({ lossless: true });
    case 'image/tiff':
      return pipeline.tiff({ compression: 'lzw' });
    default:
      // Only a JPEG whose layout could not be parsed gets here.
      return pipeline.jpeg({ quality: 95, chromaSubsampling: '4:4:4' });
  }
}

/**
 * Removes EXIF (with its GPS position), XMP, IPTC and comments from a raster photo before it is
 * stored, keeping how it displays. JPEGs are rewritten losslessly with only their orientation tag;
 * PNG, WebP and TIFF are re-encoded losslessly with the orientation baked into the pixels, as those
 * formats' orientation tags are not reliably honoured by viewers. Files without such metadata,
 * and GIFs, are left alone. Returns the new dimensions and size when the file was rewritten.
 */
export async function removePrivateMetadata(
  file: string,
  contentType: string,
  maxPixels: number,
): Promise<StoredImageFile | undefined> {
  if (!['image/jpeg', 'image/png', 'image/webp', 'image/tiff'].includes(contentType)) {
    return undefined;
  }
  const meta = await sharp(file, { limitInputPixels: maxPixels }).metadata();
  const rewritten = `${file}.clean`;
  try {
    if (contentType === 'image/jpeg') {
      const result = await stripJpegMetadata(file, rewritten, meta.orientation);
      if (result === 'clean') {
        return undefined;
      }
      if (result === 'stripped') {
        await fsp.rename(rewritten, file);
        return { width: meta.width, height: meta.height, size: (await fsp.stat(file)).size };
      }
    } else if (!meta.exif && !meta.xmp && !meta.iptc) {
      return undefined;
    }
    const info = await reencode(contentType, sharp(file, { limitInputPixels: maxPixels }).rotate()).toFile(
      rewritten,
    );
    await fsp.rename(rewritten, file);
    return { width: info.width, height: info.height, size: info.size };
  } finally {
    await fsp.rm(rewritten, { force: true });
  }
}
