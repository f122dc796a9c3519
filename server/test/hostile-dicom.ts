import { element, us } from './dicom-bombs.js';
import { newUid } from './dicom-files.js';

/** Explicit VR Little Endian, the transfer syntax the hostile files claim unless told otherwise. */
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const CT_IMAGE_STORAGE = '1.2.840.10008.5.1.4.1.1.2';
export interface HostileElement {
  vr: string;
  value: string | Buffer;
}

export interface HostileFile {
  studyUid?: string;
  seriesUid?: string;
  sopUid?: string;
  patientName?: string;
  /** YYYYMMDD */
  birthDate?: string;
  /** Written as given, CR and LF included. */
  transferSyntax?: string;
  /** Elements added or replaced, by tag as 8 hexadecimal digits ("00081030"). */
  elements?: Record<string, HostileElement>;
}

/** An element of a hostile file: its value padded to an even length, as a writer would. */
function hostileElement(tag: string, { vr, value }: HostileElement): Buffer {
  let bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
  if (bytes.length % 2 === 1) {
    bytes = Buffer.concat([bytes, Buffer.from(vr === 'UI' || vr === 'OB' ? [0] : [0x20])]);
  }
  return element(parseInt(tag, 16), vr, bytes);
}

/**
 * A small CT image (8×8, 16 bits) written by hand as a Part 10 file, so that tests can make it say
 * what no real writer would: NUL in text, numbers beyond their range, a broken transfer syntax,
 * values of many megabytes (written with a long VR). Returns the file and its SOP Instance UID.
 */
export function hostileFile(options: HostileFile = {}): { bytes: Buffer; sopUid: string } {
  const sopUid = options.sopUid ?? newUid();
  const elements: Record<string, HostileElement> = {
    '00080016': { vr: 'UI', value: CT_IMAGE_STORAGE },
    '00080018': { vr: 'UI', value: sopUid },
    '00080060': { vr: 'CS', value: 'CT' },
    '00081030': { vr: 'LO', value: 'Hostile input' },
    '00100010': { vr: 'PN', value: options.patientName ?? 'Doe^Jane' },
    '00100030': { vr: 'DA', value: options.birthDate ?? '19800402' },
    '0020000D': { vr: 'UI', value: options.studyUid ?? newUid() },
    '0020000E': { vr: 'UI', value: options.seriesUid ?? newUid() },
    '00200013': { vr: 'IS', value: '1' },
    '00280002': { vr: 'US', value: us(1) },
    '00280004': { vr: 'CS', value: 'MONOCHROME2' },
    '00280010': { vr: 'US', value: us(8) },
    '00280011': { vr: 'US', value: us(8) },
    '00280100': { vr: 'US', value: us(16) },
    '00280101': { vr: 'US', value: us(16) },
    '00280102': { vr: 'US', value: us(15) },
    '00280103': { vr: 'US', value: us(0) },
    '7FE00010': { vr: 'OW', value: Buffer.alloc(8 * 8 * 2, 0x11) },
    ...options.elements,
  };
  const meta = Buffer.concat([
    hostileElement('00020001', { vr: 'OB', value: Buffer.from([0, 1]) }),
    hostileElement('00020002', { vr: 'UI', value: CT_IMAGE_STORAGE }),
    hostileElement('00020003', { vr: 'UI', value: sopUid }),
    hostileElement('00020010', { vr: 'UI', value: options.transferSyntax ?? EXPLICIT_LE }),
  ]);
  const groupLength = hostileElement('00020000', { vr: 'UL', value: Buffer.alloc(4) });
  groupLength.writeUInt32LE(meta.length, 8);
  const dataset = Object.keys(elements)
    .sort()
    .map((tag) => hostileElement(tag, elements[tag]!));
  const preamble = Buffer.concat([Buffer.alloc(128), Buffer.from('DICM', 'latin1')]);
  return { bytes: Buffer.concat([preamble, groupLength, meta, ...dataset]), sopUid };
}
