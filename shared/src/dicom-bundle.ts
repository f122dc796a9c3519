/**
 * A DICOM bundle: many DICOM files sent as one tus upload (purpose `dicom-bundle`), so that a
 * folder of hundreds of small files costs a few requests instead of one each. It is a
 * multipart/related body of application/dicom parts whose first line names its boundary; each
 * part's Content-Location is the file's path in the chosen folder, URI-encoded.
 */
export const DICOM_BUNDLE_PART_TYPE = 'application/dicom';

/** The characters a bundle's boundary is made of (a subset of RFC 2046's), 1 to 70 of them. */
export const DICOM_BUNDLE_BOUNDARY = /^[0-9A-Za-z_.-]{1,70}$/;

/** The header block of one part, the blank line included. */
export function dicomBundlePartHead(boundary: string, path: string): string {
  return `--${boundary}\r\nContent-Type: ${DICOM_BUNDLE_PART_TYPE}\r\nContent-Location: ${encodeURIComponent(path)}\r\n\r\n`;
}

export function dicomBundleEnd(boundary: string): string {
  return `--${boundary}--\r\n`;
}
