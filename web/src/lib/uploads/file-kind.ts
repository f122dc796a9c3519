import { inParallel } from '@ra/shared';

/**
 * What a chosen file is, told from its first bytes rather than its name or type: files from a
 * CD often have no extension, and browsers give DICOM no MIME type.
 */

export type FileKind = 'dicom' | 'zip' | 'image' | 'other';

/** A file with its path within the chosen folder (its name when chosen on its own). */
export interface ChosenFile {
  file: File;
  path: string;
}

/** The 128-byte preamble and the "DICM" marker of a DICOM Part 10 file (PS3.10 §7.1). */
export const HEAD_BYTES = 132;
const DICOM_MARKER_OFFSET = 128;

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

function ascii(text: string): number[] {
  return [...text].map((char) => char.charCodeAt(0));
}

/** How the raster formats the server takes begin (docs/api.md §11.1); WebP is checked apart. */
const IMAGE_SIGNATURES: number[][] = [
  [0xff, 0xd8, 0xff],
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  ascii('GIF87a'),
  ascii('GIF89a'),
  [0x49, 0x49, 0x2a, 0x00],
  [0x4d, 0x4d, 0x00, 0x2a],
];

/** The file's name without its folders. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** A CD's DICOMDIR is a DICOM file too, but an index of the others, not an image. */
export function isDicomDir(path: string): boolean {
  return baseName(path).toUpperCase() === 'DICOMDIR';
}

/** The kind of a file from its first HEAD_BYTES bytes and its path. */
export function kindOf(head: Uint8Array, path: string): FileKind {
  if (isDicomDir(path)) {
    return 'other';
  }
  if (startsWith(head, ascii('DICM'), DICOM_MARKER_OFFSET)) {
    return 'dicom';
  }
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    return 'zip';
  }
  const isWebp = startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8);
  if (isWebp || IMAGE_SIGNATURES.some((signature) => startsWith(head, signature))) {
    return 'image';
  }
  return 'other';
}

/** The first `length` bytes of a file (FileReader: Blob.arrayBuffer is missing in some engines). */
export function readHead(file: Blob, length = HEAD_BYTES): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsArrayBuffer(file.slice(0, length));
  });
}

/** Reads this many files at once: a CD holds thousands, and each read opens the file. */
const READS_AT_ONCE = 16;

/** The kind of each chosen file, in order; a file that cannot be read counts as 'other'. */
export async function classifyFiles(chosen: readonly ChosenFile[]): Promise<FileKind[]> {
  const kinds = new Map<ChosenFile, FileKind>();
  await inParallel(chosen, READS_AT_ONCE, async (item) => {
    try {
      kinds.set(item, kindOf(await readHead(item.file), item.path));
    } catch {
      // A file moved or removed since it was chosen cannot be uploaded either.
      kinds.set(item, 'other');
    }
  });
  return chosen.map((item) => kinds.get(item) ?? 'other');
}
