import { describe, expect, it } from 'vitest';
import { dicomDate, PATIENT_HEADER_CAP, readPatientHeader } from './dicom-patient-header';
import { readDicomPatient, readDicomPatients } from './read-dicom-patients';

interface Syntax {
  uid: string;
  isExplicit: boolean;
  isLittle: boolean;
}
const EXPLICIT_LE: Syntax = { uid: '1.2.840.10008.1.2.1', isExplicit: true, isLittle: true };
const IMPLICIT_LE: Syntax = { uid: '1.2.840.10008.1.2', isExplicit: false, isLittle: true };
const EXPLICIT_BE: Syntax = { uid: '1.2.840.10008.1.2.2', isExplicit: true, isLittle: false };
const UNDEFINED = 0xffffffff;

function bytesOf(value: string | Uint8Array): Uint8Array {
  const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
  // Values have an even length (PS3.5 7.1.1).
  return bytes.length % 2 === 0 ? bytes : new Uint8Array([...bytes, 0x20]);
}

/** One data element, as `syntax` writes it; `length` overrides the value's (undefined lengths). */
function element(syntax: Syntax, tag: number, vr: string, value: string | Uint8Array, length?: number) {
  const body = bytesOf(value);
  const isLong = ['OB', 'OW', 'SQ', 'UN', 'UT'].includes(vr);
  const isItem = tag >>> 16 === 0xfffe;
  const head = new DataView(new ArrayBuffer(syntax.isExplicit && !isItem ? (isLong ? 12 : 8) : 8));
  head.setUint16(0, tag >>> 16, syntax.isLittle);
  head.setUint16(2, tag & 0xffff, syntax.isLittle);
  const size = length ?? body.length;
  if (!syntax.isExplicit || isItem) {
    head.setUint32(4, size, syntax.isLittle);
  } else {
    head.setUint8(4, vr.charCodeAt(0));
    head.setUint8(5, vr.charCodeAt(1));
    if (isLong) {
      head.setUint32(8, size, syntax.isLittle);
    } else {
      head.setUint16(6, size, syntax.isLittle);
    }
  }
  return new Uint8Array([...new Uint8Array(head.buffer), ...body]);
}

function joined(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/** A Part 10 file: preamble, DICM, the meta group (explicit little endian) and `dataset`. */
function part10(syntax: Syntax, dataset: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const meta = element(EXPLICIT_LE, 0x00020010, 'UI', `${syntax.uid}\0`);
  return joined([new Uint8Array(128), new TextEncoder().encode('DICM'), meta, ...dataset]);
}

/** A dataset naming a patient, behind a sequence of undefined length as scanners write them. */
function namingDataset(syntax: Syntax, name: string, birthDate: string, characterSet = 'ISO_IR 192') {
  const sequenceItem = joined([
    element(syntax, 0xfffee000, '', new Uint8Array(), UNDEFINED),
    element(syntax, 0x00081150, 'UI', '1.2.3'),
    element(syntax, 0xfffee00d, '', new Uint8Array()),
  ]);
  return [
    element(syntax, 0x00080005, 'CS', characterSet),
    element(syntax, 0x00080060, 'CS', 'CT'),
    element(syntax, 0x00081140, 'SQ', new Uint8Array(), UNDEFINED),
    sequenceItem,
    element(syntax, 0xfffee0dd, '', new Uint8Array()),
    element(syntax, 0x00100010, 'PN', name),
    element(syntax, 0x00100020, 'LO', 'ID-1'),
    element(syntax, 0x00100030, 'DA', birthDate),
    element(syntax, 0x00100040, 'CS', 'F'),
    element(syntax, 0x7fe00010, 'OW', new Uint8Array(64)),
  ];
}

describe('readPatientHeader', () => {
  it.each([
    ['explicit little endian', EXPLICIT_LE],
    ['implicit little endian', IMPLICIT_LE],
    ['explicit big endian', EXPLICIT_BE],
  ])('reads the name and birth date in %s, past a sequence of undefined length', (_, syntax) => {
    const file = part10(syntax, namingDataset(syntax, 'Müller^Anna^^Dr.^', '19800102'));
    expect(readPatientHeader(file, true)).toEqual({ name: 'Müller^Anna^^Dr.', birthDate: '1980-01-02' });
  });

  it('stops at the first element past the birth date: the rest of the file is not needed', () => {
    const file = part10(EXPLICIT_LE, namingDataset(EXPLICIT_LE, 'Doe^Jane', '19700101'));
    const upToBirthDate = file.length - (12 + 64) - (8 + 2);
    expect(readPatientHeader(file.subarray(0, upToBirthDate), false)).toEqual({
      name: 'Doe^Jane',
      birthDate: '1970-01-01',
    });
  });

  it('reads the name’s alphabetic group and decodes Latin-1 names', () => {
    const latin1 = new Uint8Array(
      [...'M']
        .map((c) => c.charCodeAt(0))
        .concat(
          [0xfc],
          [...'ller^Ann'].map((c) => c.charCodeAt(0)),
        ),
    );
    const file = part10(EXPLICIT_LE, [
      element(EXPLICIT_LE, 0x00080005, 'CS', 'ISO_IR 100'),
      element(EXPLICIT_LE, 0x00100010, 'PN', latin1),
    ]);
    expect(readPatientHeader(file, true)).toEqual({ name: 'Müller^Ann', birthDate: null });
    const grouped = part10(EXPLICIT_LE, [element(EXPLICIT_LE, 0x00100010, 'PN', 'Yamada^Tarou=山田^太郎')]);
    expect(readPatientHeader(grouped, true)).toEqual({ name: 'Yamada^Tarou', birthDate: null });
  });

  it('asks for more bytes when the header goes on past them, and gives up at the end of the file', () => {
    const file = part10(EXPLICIT_LE, namingDataset(EXPLICIT_LE, 'Doe^Jane', '19700101'));
    expect(readPatientHeader(file.subarray(0, 200), false)).toBe('more');
    expect(readPatientHeader(file.subarray(0, 200), true)).toBe('unreadable');
  });

  it('cannot tell for a file that is not Part 10, nor for a deflated dataset', () => {
    expect(readPatientHeader(new Uint8Array(300), true)).toBe('unreadable');
    const deflated = { uid: '1.2.840.10008.1.2.1.99', isExplicit: true, isLittle: true };
    expect(readPatientHeader(part10(deflated, [new Uint8Array([1, 2, 3, 4])]), true)).toBe('unreadable');
  });

  it('gives no birth date for an empty or impossible one', () => {
    expect(dicomDate('')).toBeNull();
    expect(dicomDate('19800231')).toBeNull();
    expect(dicomDate('1980.02.03')).toBe('1980-02-03');
  });
});

/** A Blob that records how far each read of it reached. */
class WatchedBlob extends Blob {
  readonly reads: number[] = [];

  override slice(start?: number, end?: number, contentType?: string): Blob {
    this.reads.push(end ?? this.size);
    return super.slice(start, end, contentType);
  }
}

describe('readDicomPatient', () => {
  it('reads on past a large element before the patient, up to its cap', async () => {
    const big = part10(EXPLICIT_LE, [
      element(EXPLICIT_LE, 0x00091010, 'OB', new Uint8Array(100 * 1024)),
      element(EXPLICIT_LE, 0x00100010, 'PN', 'Roe^Rick'),
      element(EXPLICIT_LE, 0x7fe00010, 'OW', new Uint8Array(400 * 1024)),
    ]);
    const file = new WatchedBlob([big]);
    expect(await readDicomPatient(file)).toEqual({ name: 'Roe^Rick', birthDate: null });
    expect(Math.max(...file.reads)).toBe(PATIENT_HEADER_CAP);
  });

  it('reads no more than its cap, and leaves a file with no patient within it to the server', async () => {
    const huge = part10(EXPLICIT_LE, [
      element(EXPLICIT_LE, 0x00091010, 'OB', new Uint8Array(300 * 1024)),
      element(EXPLICIT_LE, 0x00100010, 'PN', 'Roe^Rick'),
    ]);
    const file = new WatchedBlob([huge]);
    expect(await readDicomPatient(file)).toBeNull();
    expect(Math.max(...file.reads)).toBe(PATIENT_HEADER_CAP);
  });
});

describe('readDicomPatients', () => {
  it('gives each readable file’s patient in the files’ order, and counts the others', async () => {
    const named = (name: string) =>
      new Blob([part10(EXPLICIT_LE, namingDataset(EXPLICIT_LE, name, '19700101'))]);
    const result = await readDicomPatients([
      named('A^A'),
      new Blob(['not dicom']),
      named('B^B'),
      named('A^A'),
    ]);
    expect(result.found.map((patient) => patient.name)).toEqual(['A^A', 'B^B', 'A^A']);
    expect(result.unread).toBe(1);
  });
});
