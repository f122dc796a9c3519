/** Files whose first bytes are those of real DICOM, ZIP and image files, for tests of the upload. */

const DICM = [0x44, 0x49, 0x43, 0x4d];

/** A DICOM Part 10 file: a 128-byte preamble, "DICM", then `size` bytes in all. */
export function dicomFile(
  name: string,
  size = 1024,
  options: { lastModified?: number; preamble?: readonly number[] } = {},
) {
  const bytes = new Uint8Array(Math.max(size, 132));
  bytes.set(options.preamble ?? [], 0);
  bytes.set(DICM, 128);
  return new File([bytes], name, { lastModified: options.lastModified ?? 1_700_000_000_000 });
}

/** A file that starts with `head` and is `size` bytes long. */
export function fileStartingWith(name: string, head: readonly number[], size = 256, type = '') {
  const bytes = new Uint8Array(Math.max(size, head.length));
  bytes.set(head, 0);
  return new File([bytes], name, { type, lastModified: 1_700_000_000_000 });
}

export const SIGNATURES = {
  zip: [0x50, 0x4b, 0x03, 0x04],
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  gif: [...'GIF89a'].map((c) => c.charCodeAt(0)),
  webp: [...'RIFF\u0000\u0000\u0000\u0000WEBP'].map((c) => c.charCodeAt(0)),
  tiffLittle: [0x49, 0x49, 0x2a, 0x00],
  tiffBig: [0x4d, 0x4d, 0x00, 0x2a],
  pdf: [...'%PDF-1.7'].map((c) => c.charCodeAt(0)),
  autorun: [...'[autorun]'].map((c) => c.charCodeAt(0)),
} as const;
