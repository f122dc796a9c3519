import crypto from 'node:crypto';

/*
 * The start of a Part 10 file (PS3.10 7.1) for a dataset received by C-STORE: the 128-byte preamble,
 * "DICM" and the File Meta Information (group 0002, always explicit VR little endian). The dataset's
 * bytes follow unchanged, in the transfer syntax they arrived in.
 */

/** The archive's Implementation Class UID: a name-based UID under 2.25, the one reports write too. */
const IMPLEMENTATION_CLASS_UID = (() => {
  const bytes = crypto
    .createHash('sha256')
    .update('radiology-archive:implementation:1')
    .digest()
    .subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return `2.25.${BigInt(`0x${bytes.toString('hex')}`).toString()}`;
})();
const IMPLEMENTATION_VERSION = 'RADARCHIVE';

/** One explicit VR little endian element with a short (2-byte) length. */
function shortElement(element: number, vr: 'UI' | 'SH' | 'AE' | 'UL', value: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(0x0002, 0);
  head.writeUInt16LE(element, 2);
  head.write(vr, 4, 'latin1');
  head.writeUInt16LE(value.length, 6);
  return Buffer.concat([head, value]);
}

/** A text value padded to even length: UIDs with NUL, other text with a space (PS3.5 6.2). */
function padded(text: string, pad: '\0' | ' '): Buffer {
  return Buffer.from(text.length % 2 === 0 ? text : text + pad, 'latin1');
}

export function part10Header(meta: {
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntaxUid: string;
  /** The AE title that sent it (0002,0016). */
  sourceAeTitle: string;
}): Buffer {
  // (0002,0001) File Meta Information Version: OB, which takes a 4-byte length.
  const version = Buffer.from([0x02, 0x00, 0x01, 0x00, 0x4f, 0x42, 0, 0, 2, 0, 0, 0, 0x00, 0x01]);
  const elements = Buffer.concat([
    version,
    shortElement(0x0002, 'UI', padded(meta.sopClassUid, '\0')),
    shortElement(0x0003, 'UI', padded(meta.sopInstanceUid, '\0')),
    shortElement(0x0010, 'UI', padded(meta.transferSyntaxUid, '\0')),
    shortElement(0x0012, 'UI', padded(IMPLEMENTATION_CLASS_UID, '\0')),
    shortElement(0x0013, 'SH', padded(IMPLEMENTATION_VERSION, ' ')),
    shortElement(0x0016, 'AE', padded(meta.sourceAeTitle, ' ')),
  ]);
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(elements.length, 0);
  return Buffer.concat([
    Buffer.alloc(128),
    Buffer.from('DICM', 'latin1'),
    shortElement(0x0000, 'UL', groupLength),
    elements,
  ]);
}
