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

/** An explicit little-endian data element with a short VR (PS3.5 7.1.2), its value padded to even. */
function shortElement(group: number, element: number, vr: string, value: string): number[] {
  const text = [...new TextEncoder().encode(value)];
  const padded = text.length % 2 === 0 ? text : [...text, 0x20];
  const head = new DataView(new ArrayBuffer(8));
  head.setUint16(0, group, true);
  head.setUint16(2, element, true);
  head.setUint8(4, vr.charCodeAt(0));
  head.setUint8(5, vr.charCodeAt(1));
  head.setUint16(6, padded.length, true);
  return [...new Uint8Array(head.buffer), ...padded];
}

/** A DICOM Part 10 file whose header names a patient ("Family^Given", birth date YYYYMMDD). */
export function dicomFileNaming(name: string, patient: { name: string; birthDate: string }, size = 4096) {
  const header = [
    ...shortElement(0x0002, 0x0010, 'UI', '1.2.840.10008.1.2.1\0'),
    ...shortElement(0x0008, 0x0005, 'CS', 'ISO_IR 192'),
    ...shortElement(0x0008, 0x0060, 'CS', 'CT'),
    ...shortElement(0x0010, 0x0010, 'PN', patient.name),
    ...shortElement(0x0010, 0x0030, 'DA', patient.birthDate),
  ];
  const bytes = new Uint8Array(Math.max(size, 132 + header.length));
  bytes.set(DICM, 128);
  bytes.set(header, 132);
  return new File([bytes], name, { lastModified: 1_700_000_000_000 });
}
