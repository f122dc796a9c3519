import fs from 'node:fs';
import path from 'node:path';

/**
 * pydicom's test files, as the Debian/Ubuntu package python3-pydicom installs them (CI installs it).
 * DICOM_SAMPLES_DIR points elsewhere, for a pydicom installed another way.
 */
export const DICOM_SAMPLES_DIR =
  process.env.DICOM_SAMPLES_DIR ?? '/usr/lib/python3/dist-packages/pydicom/data/test_files';

/** A sample's bytes; a missing directory fails loudly, since skipping would hide every DICOM test. */
export function readDicomSample(name: string): Buffer {
  if (!fs.existsSync(DICOM_SAMPLES_DIR)) {
    throw new Error(
      `The DICOM sample files are missing: ${DICOM_SAMPLES_DIR} does not exist. ` +
        'Install them with "apt-get install python3-pydicom", or set DICOM_SAMPLES_DIR.',
    );
  }
  return fs.readFileSync(path.join(DICOM_SAMPLES_DIR, name));
}

/**
 * A copy of an explicit little-endian file whose Rows and Columns claim other sizes (US, so at most
 * 65535): the pixel data stays as it was, as in a file crafted to make a decoder allocate too much.
 */
export function withImageSize(file: Buffer, rows: number, columns: number): Buffer {
  const copy = Buffer.from(file);
  for (const [element, value] of [
    [0x0010, rows],
    [0x0011, columns],
  ] as const) {
    const header = Buffer.from([0x28, 0x00, element, 0x00, 0x55, 0x53, 0x02, 0x00]);
    const at = copy.indexOf(header);
    if (at < 0) {
      throw new Error(`No explicit little-endian (0028,${element.toString(16).padStart(4, '0')}) to change.`);
    }
    copy.writeUInt16LE(value, at + header.length);
  }
  return copy;
}
