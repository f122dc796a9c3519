/** The image formats the archive accepts, by sharp's format name, with their MIME type and file extension. */
export const SUPPORTED_IMAGE_FORMATS = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  webp: { mime: 'image/webp', ext: 'webp' },
  gif: { mime: 'image/gif', ext: 'gif' },
  tiff: { mime: 'image/tiff', ext: 'tif' },
} as const;

export type SupportedFormat = keyof typeof SUPPORTED_IMAGE_FORMATS;

const MIME_BY_EXT: Record<string, string> = Object.fromEntries(
  Object.values(SUPPORTED_IMAGE_FORMATS).map((format) => [format.ext, format.mime]),
);

export function mimeOfKey(key: string): string {
  const ext = key.split('.').pop() ?? '';
  return MIME_BY_EXT[ext] ?? 'application/octet-stream';
}

export function extensionOfMime(mime: string): string {
  return Object.values(SUPPORTED_IMAGE_FORMATS).find((format) => format.mime === mime)?.ext ?? 'bin';
}
