import type { PatientInFiles } from '@ra/shared';

/**
 * Reads the patient a DICOM Part 10 file names, Patient's Name (0010,0010) and Patient's Birth
 * Date (0010,0030), from the file's first bytes, before anything is uploaded. The elements of a
 * dataset come in tag order, so the walk stops at the first one past (0010,0030); the pixel data,
 * at the end, is never reached.
 */

/** Group 0010 sits near the start; a header this long without it is read by the server instead. */
export const PATIENT_HEADER_CAP = 256 * 1024;

const IMPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2';
const EXPLICIT_BIG_ENDIAN = '1.2.840.10008.1.2.2';
const DEFLATED = '1.2.840.10008.1.2.1.99';

const PATIENT_NAME = 0x00100010;
const PATIENT_BIRTH_DATE = 0x00100030;
const SPECIFIC_CHARACTER_SET = 0x00080005;
const ITEM = 0xfffee000;
const ITEM_END = 0xfffee00d;
const SEQUENCE_END = 0xfffee0dd;
const UNDEFINED_LENGTH = 0xffffffff;

/** Explicit VRs whose length takes four bytes after two reserved ones (PS3.5 7.1.2). */
const LONG_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'SV', 'UC', 'UN', 'UR', 'UT', 'UV']);

/**
 * What a header gives: the patient; 'more' when the bytes ran out before the walk was done;
 * 'unreadable' when this reader cannot tell (not Part 10, a deflated dataset, malformed).
 */
export type HeaderReading = PatientInFiles | 'more' | 'unreadable';

class OutOfBytes extends Error {}
class Malformed extends Error {}

interface Element {
  tag: number;
  vr: string | null;
  length: number;
  /** Where its value starts. */
  at: number;
}

/** The text encodings of Specific Character Set's single-byte and Unicode terms (PS3.3 C.12.1.1.2). */
const CHARACTER_SETS: Record<string, string> = {
  ISO_IR_100: 'latin1',
  ISO_IR_101: 'iso-8859-2',
  ISO_IR_109: 'iso-8859-3',
  ISO_IR_110: 'iso-8859-4',
  ISO_IR_144: 'iso-8859-5',
  ISO_IR_127: 'iso-8859-6',
  ISO_IR_126: 'iso-8859-7',
  ISO_IR_138: 'iso-8859-8',
  ISO_IR_148: 'iso-8859-9',
  ISO_IR_166: 'windows-874',
  ISO_IR_192: 'utf-8',
  GB18030: 'gb18030',
  GBK: 'gbk',
};

function encodingOf(characterSet: string): string {
  // The first term names the default repertoire; ISO 2022 terms ("ISO 2022 IR 100") switch sets
  // inside the value, which a plain decoder does not follow: their base set is the best guess.
  const first = characterSet
    .split('\\')[0]!
    .trim()
    .replace(/^ISO 2022 IR /, 'ISO_IR ');
  return CHARACTER_SETS[first.replace(' ', '_')] ?? 'latin1';
}

/** The alphabetic group of a person name, as the server reads it. */
function personName(value: string): string {
  return value.split('=')[0]!.trim().replace(/\^+$/, '');
}

/** A DA value as YYYY-MM-DD, or null when it is not a real date (the old "YYYY.MM.DD" is read too). */
export function dicomDate(value: string): string | null {
  const match = /^(\d{4})\.?(\d{2})\.?(\d{2})$/.exec(value.trim());
  if (!match) {
    return null;
  }
  const [, year, month, day] = match as unknown as [string, string, string, string];
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const isReal = date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
  return isReal ? `${year}-${month}-${day}` : null;
}

class Reader {
  constructor(
    private readonly bytes: Uint8Array,
    private readonly view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  ) {}

  get length(): number {
    return this.bytes.length;
  }

  need(at: number, count: number): void {
    if (at + count > this.bytes.length) {
      throw new OutOfBytes();
    }
  }

  uint16(at: number, isLittle: boolean): number {
    this.need(at, 2);
    return this.view.getUint16(at, isLittle);
  }

  uint32(at: number, isLittle: boolean): number {
    this.need(at, 4);
    return this.view.getUint32(at, isLittle);
  }

  ascii(at: number, count: number): string {
    this.need(at, count);
    return String.fromCharCode(...this.bytes.subarray(at, at + count));
  }

  text(at: number, count: number, encoding: string): string {
    this.need(at, count);
    let decoder: TextDecoder;
    try {
      decoder = new TextDecoder(encoding);
    } catch {
      decoder = new TextDecoder('latin1');
    }
    return decoder.decode(this.bytes.subarray(at, at + count)).replace(/\0/g, '');
  }
}

/** Reads an element's header at `at`: explicit or implicit VR, little or big endian. */
function elementAt(reader: Reader, at: number, isExplicit: boolean, isLittle: boolean): Element {
  const tag = ((reader.uint16(at, isLittle) << 16) | reader.uint16(at + 2, isLittle)) >>> 0;
  // Items and delimiters have no VR in any transfer syntax.
  if (!isExplicit || tag >>> 16 === 0xfffe) {
    return { tag, vr: null, length: reader.uint32(at + 4, isLittle), at: at + 8 };
  }
  const vr = reader.ascii(at + 4, 2);
  if (!/^[A-Z]{2}$/.test(vr)) {
    throw new Malformed();
  }
  return LONG_VRS.has(vr)
    ? { tag, vr, length: reader.uint32(at + 8, isLittle), at: at + 12 }
    : { tag, vr, length: reader.uint16(at + 6, isLittle), at: at + 8 };
}

/** Where the element at `at` ends, its nested items of undefined length walked through. */
function endOf(reader: Reader, element: Element, isExplicit: boolean, isLittle: boolean): number {
  if (element.length !== UNDEFINED_LENGTH) {
    return element.at + element.length;
  }
  // A sequence (or an item) of undefined length ends at its delimiter.
  const closer = element.tag === ITEM ? ITEM_END : SEQUENCE_END;
  let at = element.at;
  for (;;) {
    const inner = elementAt(reader, at, isExplicit, isLittle);
    if (inner.tag === closer) {
      return inner.at;
    }
    at = endOf(reader, inner, isExplicit, isLittle);
  }
}

/** The transfer syntax the file meta information names, and where the dataset starts. */
function readMeta(reader: Reader): { transferSyntax: string; datasetAt: number } {
  let at = 132;
  let transferSyntax = '';
  // Group 0002 is always explicit VR little endian (PS3.10 7.1).
  while (at + 2 <= reader.length && reader.uint16(at, true) === 0x0002) {
    const element = elementAt(reader, at, true, true);
    if (element.tag === 0x00020010) {
      transferSyntax = reader.ascii(element.at, element.length).replace(/[\0 ]+$/, '');
    }
    at = endOf(reader, element, true, true);
  }
  reader.need(at, 2);
  return { transferSyntax, datasetAt: at };
}

/**
 * The patient named in a DICOM Part 10 file whose first bytes are `bytes`; `isWholeFile` when
 * they are all of it (running out then ends the walk rather than asking for more).
 */
export function readPatientHeader(bytes: Uint8Array, isWholeFile: boolean): HeaderReading {
  const reader = new Reader(bytes);
  try {
    if (reader.ascii(128, 4) !== 'DICM') {
      return 'unreadable';
    }
    const { transferSyntax, datasetAt } = readMeta(reader);
    if (transferSyntax === DEFLATED) {
      return 'unreadable';
    }
    const isExplicit = transferSyntax !== IMPLICIT_LITTLE_ENDIAN;
    const isLittle = transferSyntax !== EXPLICIT_BIG_ENDIAN;
    let encoding = 'latin1';
    let name = '';
    let birthDate: string | null = null;
    let at = datasetAt;
    while (at < reader.length || !isWholeFile) {
      const element = elementAt(reader, at, isExplicit, isLittle);
      if (element.tag > PATIENT_BIRTH_DATE) {
        break;
      }
      const end = endOf(reader, element, isExplicit, isLittle);
      if (element.tag === SPECIFIC_CHARACTER_SET) {
        encoding = encodingOf(reader.ascii(element.at, element.length));
      } else if (element.tag === PATIENT_NAME) {
        name = personName(reader.text(element.at, element.length, encoding));
      } else if (element.tag === PATIENT_BIRTH_DATE) {
        birthDate = dicomDate(reader.ascii(element.at, element.length).replace(/\0/g, ''));
        break;
      }
      reader.need(element.at, end - element.at);
      at = end;
    }
    return { name, birthDate };
  } catch (error) {
    if (error instanceof OutOfBytes) {
      return isWholeFile ? 'unreadable' : 'more';
    }
    if (error instanceof Malformed) {
      return 'unreadable';
    }
    throw error;
  }
}
