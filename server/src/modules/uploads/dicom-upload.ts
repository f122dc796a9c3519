import fs from 'node:fs/promises';
import { DICOM_BUNDLE_BOUNDARY } from '@ra/shared';

export type DicomPurpose = 'dicom' | 'dicom-zip' | 'dicom-bundle';

export function isDicomPurpose(purpose: string): purpose is DicomPurpose {
  return purpose === 'dicom' || purpose === 'dicom-zip' || purpose === 'dicom-bundle';
}

/** A Part 10 file has a 128-byte preamble, then "DICM". */
const DICOM_MARKER_OFFSET = 128;
const DICOM_MARKER = Buffer.from('DICM', 'latin1');
/** A local file header, or the end record of an empty archive. */
const ZIP_MARKERS = [Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from([0x50, 0x4b, 0x05, 0x06])];

export async function readHead(file: string, length: number): Promise<Buffer> {
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(length);
    const { bytesRead } = await handle.read(head, 0, length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A bundle's first line: "--", its boundary, CRLF. */
export const MAX_BUNDLE_FIRST_LINE = 2 + 70 + 2;

/** The boundary a DICOM bundle names on its first line, or undefined when it does not start as one. */
export function dicomBundleBoundaryOf(head: Uint8Array): string | undefined {
  const text = Buffer.from(head.subarray(0, MAX_BUNDLE_FIRST_LINE)).toString('latin1');
  const lineEnd = text.indexOf('\r\n');
  const boundary = text.slice(2, lineEnd);
  return text.startsWith('--') && lineEnd > 2 && DICOM_BUNDLE_BOUNDARY.test(boundary) ? boundary : undefined;
}

/** Whether bytes start as a DICOM Part 10 file does. */
export function startsAsDicom(bytes: Uint8Array): boolean {
  return DICOM_MARKER.equals(bytes.subarray(DICOM_MARKER_OFFSET, DICOM_MARKER_OFFSET + DICOM_MARKER.length));
}

/** Whether a file starts as a DICOM Part 10 file does; its content is read only when it is filed. */
export async function hasDicomMarker(file: string): Promise<boolean> {
  return startsAsDicom(await readHead(file, DICOM_MARKER_OFFSET + DICOM_MARKER.length));
}

const CONTENT_TYPES: Record<DicomPurpose, string> = {
  dicom: 'application/dicom',
  'dicom-zip': 'application/zip',
  'dicom-bundle': 'multipart/related',
};

/**
 * The stored type of a finished DICOM or ZIP upload, or undefined when its first bytes say it is
 * not what its purpose claims. Dimensions are those of a study's preview, known later. `head`
 * gives the upload's first bytes (from a file on this disk, or one ranged read of a bucket object).
 */
export async function inspectDicomUpload(head: (length: number) => Promise<Buffer>, purpose: DicomPurpose) {
  let isExpected: boolean;
  if (purpose === 'dicom') {
    isExpected = startsAsDicom(await head(DICOM_MARKER_OFFSET + DICOM_MARKER.length));
  } else if (purpose === 'dicom-bundle') {
    isExpected = dicomBundleBoundaryOf(await head(MAX_BUNDLE_FIRST_LINE)) !== undefined;
  } else {
    const bytes = await head(4);
    isExpected = ZIP_MARKERS.some((marker) => marker.equals(bytes));
  }
  return isExpected ? { contentType: CONTENT_TYPES[purpose], width: 0, height: 0 } : undefined;
}
