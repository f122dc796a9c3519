import crypto from 'node:crypto';
import dcmjs, { type DcmjsDataset } from 'dcmjs';

/*
 * The DICOMDIR of a download (PS3.10 file-set, PS3.3 Annex F Basic Directory): one PATIENT record
 * per patient the files name, under it STUDY, SERIES and IMAGE records, each IMAGE record naming
 * its file by its path in the ZIP. dcmjs writes the file meta header; the directory records are
 * written here byte by byte, because each record points at others by their byte offset in the
 * file, which dcmjs does not tell.
 */

const MEDIA_STORAGE_DIRECTORY = '1.2.840.10008.1.3.10';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

/** The same UID for the same name: a name-based UUID (SHA-256) under the 2.25 root. */
export function uidOfName(name: string): string {
  const bytes = crypto.createHash('sha256').update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return `2.25.${BigInt(`0x${bytes.toString('hex')}`).toString()}`;
}

const IMPLEMENTATION_CLASS_UID = uidOfName('radiology-archive:implementation:1');

export interface DicomdirImage {
  /** The file's path in the ZIP, components separated by '/', e.g. DICOM/S0001/SE0001/IM000001. */
  path: string;
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntaxUid: string;
  instanceNumber: number;
}

export interface DicomdirSeries {
  seriesInstanceUid: string;
  modality: string;
  seriesNumber: number;
  images: DicomdirImage[];
}

export interface DicomdirStudy {
  studyInstanceUid: string;
  /** YYYYMMDD. */
  studyDate: string;
  studyTime: string;
  studyDescription: string;
  accessionNumber: string;
  studyId: string;
  series: DicomdirSeries[];
}

export interface DicomdirPatient {
  patientId: string;
  patientName: string;
  studies: DicomdirStudy[];
}

/** One element's value as this writer takes it: text (split on '\\' for several values) or numbers. */
type Value = { vr: 'UL'; value: number } | { vr: 'US'; value: number } | { vr: TextVr; value: string };
type TextVr = 'CS' | 'DA' | 'TM' | 'SH' | 'LO' | 'PN' | 'UI' | 'IS';

/** Longest value of each text VR (PS3.5 6.2), per value. */
const MAX_LENGTH: Record<TextVr, number> = { CS: 16, DA: 8, TM: 14, SH: 16, LO: 64, PN: 64, UI: 64, IS: 12 };

/** Text fit for its VR: no control characters or value separators, clipped to the VR's length. */
function clean(vr: TextVr, text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  let value = text.replace(/[\u0000-\u001f\u007f\\]/g, ' ').trim();
  if (vr === 'CS') {
    value = value.toUpperCase().replace(/[^A-Z0-9 _]/g, '_');
  }
  if (vr === 'DA' || vr === 'TM') {
    value = value.replace(/[^0-9.]/g, '');
  }
  return [...value].slice(0, MAX_LENGTH[vr]).join('');
}

interface Element {
  group: number;
  element: number;
  value: Value;
}

function encodeElement({ group, element, value }: Element): Buffer {
  let data: Buffer;
  if (value.vr === 'UL') {
    data = Buffer.alloc(4);
    data.writeUInt32LE(value.value);
  } else if (value.vr === 'US') {
    data = Buffer.alloc(2);
    data.writeUInt16LE(value.value);
  } else {
    data = Buffer.from(value.value, 'utf8');
    if (data.length % 2 === 1) {
      data = Buffer.concat([data, Buffer.from(value.vr === 'UI' ? '\0' : ' ')]);
    }
  }
  const head = Buffer.alloc(8);
  head.writeUInt16LE(group, 0);
  head.writeUInt16LE(element, 2);
  head.write(value.vr, 4, 'latin1');
  head.writeUInt16LE(data.length, 6);
  return Buffer.concat([head, data]);
}

/** An item tag (FFFE,E000) with its defined length, then the item's bytes. */
function encodeItem(content: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(0xfffe, 0);
  head.writeUInt16LE(0xe000, 2);
  head.writeUInt32LE(content.length, 4);
  return Buffer.concat([head, content]);
}

/** A directory record before its offsets are known. */
interface DirectoryRecord {
  type: 'PATIENT' | 'STUDY' | 'SERIES' | 'IMAGE';
  /** The record's own elements after the record header, in tag order. */
  elements: Element[];
  children: DirectoryRecord[];
}

const text = (group: number, element: number, vr: TextVr, value: string): Element => ({
  group,
  element,
  value: { vr, value: vr === 'UI' ? value : clean(vr, value) },
});

/** The Specific Character Set element when a record's text is not plain ASCII. */
function withCharacterSet(elements: Element[]): Element[] {
  // Text values hold no control characters (clean() took them out): printable ASCII is plain ASCII.
  const isAscii = elements.every(
    (e) => e.value.vr === 'UL' || e.value.vr === 'US' || /^[ -~]*$/.test(e.value.value),
  );
  return isAscii ? elements : [text(0x0008, 0x0005, 'CS', 'ISO_IR 192'), ...elements];
}

function recordsOf(patients: DicomdirPatient[]): DirectoryRecord[] {
  return patients.map((patient) => ({
    type: 'PATIENT',
    elements: withCharacterSet([
      text(0x0010, 0x0010, 'PN', patient.patientName),
      text(0x0010, 0x0020, 'LO', patient.patientId),
    ]),
    children: patient.studies.map((study) => ({
      type: 'STUDY',
      elements: withCharacterSet([
        text(0x0008, 0x0020, 'DA', study.studyDate),
        text(0x0008, 0x0030, 'TM', study.studyTime || '000000'),
        text(0x0008, 0x0050, 'SH', study.accessionNumber),
        text(0x0008, 0x1030, 'LO', study.studyDescription),
        text(0x0020, 0x000d, 'UI', study.studyInstanceUid),
        text(0x0020, 0x0010, 'SH', study.studyId),
      ]),
      children: study.series.map((series) => ({
        type: 'SERIES',
        elements: [
          text(0x0008, 0x0060, 'CS', series.modality || 'OT'),
          text(0x0020, 0x000e, 'UI', series.seriesInstanceUid),
          text(0x0020, 0x0011, 'IS', String(series.seriesNumber)),
        ],
        children: series.images.map((image) => ({
          type: 'IMAGE',
          elements: [
            // Referenced File ID: the path's components as the values of one CS element.
            { group: 0x0004, element: 0x1500, value: { vr: 'CS', value: referencedFileId(image.path) } },
            text(0x0004, 0x1510, 'UI', image.sopClassUid),
            text(0x0004, 0x1511, 'UI', image.sopInstanceUid),
            text(0x0004, 0x1512, 'UI', image.transferSyntaxUid),
            text(0x0020, 0x0013, 'IS', String(image.instanceNumber)),
          ],
          children: [],
        })),
      })),
    })),
  }));
}

/** A ZIP path as Referenced File ID values: uppercase components of at most 8 characters. */
function referencedFileId(path: string): string {
  const parts = path.split('/');
  if (parts.some((part) => !/^[A-Z0-9_]{1,8}$/.test(part)) || parts.length > 8) {
    throw new Error(`Not a file-set path: ${path}`);
  }
  return parts.join('\\');
}

/** A record's bytes as an item of the Directory Record Sequence, given where its next and first lower records lie. */
function encodeRecord(record: DirectoryRecord, next: number, lower: number): Buffer {
  const header: Element[] = [
    { group: 0x0004, element: 0x1400, value: { vr: 'UL', value: next } },
    { group: 0x0004, element: 0x1410, value: { vr: 'US', value: 0xffff } },
    { group: 0x0004, element: 0x1420, value: { vr: 'UL', value: lower } },
    text(0x0004, 0x1430, 'CS', record.type),
  ];
  const elements = [...header, ...record.elements].sort((a, b) => a.group - b.group || a.element - b.element);
  return encodeItem(Buffer.concat(elements.map(encodeElement)));
}

/** The records depth first, as they are laid out in the sequence, each with its place in the tree. */
function flatten(records: DirectoryRecord[]): { record: DirectoryRecord; next?: DirectoryRecord }[] {
  const out: { record: DirectoryRecord; next?: DirectoryRecord }[] = [];
  const walk = (siblings: DirectoryRecord[]) => {
    siblings.forEach((record, index) => {
      out.push({ record, next: siblings[index + 1] });
      walk(record.children);
    });
  };
  walk(records);
  return out;
}

/** The file meta header, written by dcmjs: preamble, "DICM" and group 0002. */
function metaHeader(fileSetUid: string): Buffer {
  const meta = {
    '00020001': { vr: 'OB', Value: [new Uint8Array([0, 1]).buffer] },
    '00020002': { vr: 'UI', Value: [MEDIA_STORAGE_DIRECTORY] },
    '00020003': { vr: 'UI', Value: [fileSetUid] },
    '00020010': { vr: 'UI', Value: [EXPLICIT_LE] },
    '00020012': { vr: 'UI', Value: [IMPLEMENTATION_CLASS_UID] },
    '00020013': { vr: 'SH', Value: ['RADARCHIVE'] },
  } as unknown as DcmjsDataset;
  const file = new dcmjs.data.DicomDict(meta);
  file.dict = {};
  return Buffer.from(file.write());
}

/**
 * The DICOMDIR file of these patients' files. `fileSetUid` names the file-set (the same download
 * gives the same UID, so the same records give the same bytes).
 */
export function writeDicomdir(patients: DicomdirPatient[], fileSetUid: string): Buffer {
  const header = metaHeader(fileSetUid);
  const ordered = flatten(recordsOf(patients));
  // Offsets are 4-byte values whatever they hold: measure each record with zeros first.
  const sizes = ordered.map(({ record }) => encodeRecord(record, 0, 0).length);
  const before: Element[] = [
    text(0x0004, 0x1130, 'CS', 'RADARCHIVE'),
    { group: 0x0004, element: 0x1200, value: { vr: 'UL', value: 0 } },
    { group: 0x0004, element: 0x1202, value: { vr: 'UL', value: 0 } },
    { group: 0x0004, element: 0x1212, value: { vr: 'US', value: 0 } },
  ];
  // The sequence's own header: tag, "SQ", two reserved bytes, a 4-byte length.
  const sequenceStart = header.length + before.reduce((sum, e) => sum + encodeElement(e).length, 0) + 12;
  const offsetOf = new Map<DirectoryRecord, number>();
  let position = sequenceStart;
  ordered.forEach(({ record }, index) => {
    offsetOf.set(record, position);
    position += sizes[index]!;
  });
  const items = ordered.map(({ record, next }) =>
    encodeRecord(
      record,
      next ? offsetOf.get(next)! : 0,
      record.children[0] ? offsetOf.get(record.children[0])! : 0,
    ),
  );
  const roots = patients.length > 0 ? recordsOfRoots(ordered) : [];
  before[1]!.value = { vr: 'UL', value: roots.length > 0 ? offsetOf.get(roots[0]!)! : 0 };
  before[2]!.value = { vr: 'UL', value: roots.length > 0 ? offsetOf.get(roots.at(-1)!)! : 0 };
  const body = Buffer.concat(items);
  const sequenceHead = Buffer.alloc(12);
  sequenceHead.writeUInt16LE(0x0004, 0);
  sequenceHead.writeUInt16LE(0x1220, 2);
  sequenceHead.write('SQ', 4, 'latin1');
  sequenceHead.writeUInt32LE(body.length, 8);
  return Buffer.concat([header, ...before.map(encodeElement), sequenceHead, body]);
}

/** The root records (patients) among the flattened ones, in order. */
function recordsOfRoots(ordered: { record: DirectoryRecord }[]): DirectoryRecord[] {
  return ordered.map(({ record }) => record).filter((record) => record.type === 'PATIENT');
}
