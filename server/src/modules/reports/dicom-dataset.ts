import crypto from 'node:crypto';
import dcmjs, { type DcmjsDataset } from 'dcmjs';

/*
 * The small vocabulary the report builders write DICOM in: elements by tag as DICOM JSON
 * (PS3.18 F.2), coded concepts, SR content items, and the Part 10 file dcmjs writes from them.
 */

export type Element = { vr: string; Value: unknown[] };
export type Dataset = Record<string, Element>;

export const TRANSFER_SYNTAX_EXPLICIT_LE = '1.2.840.10008.1.2.1';
/** UID root 2.25 (ISO/IEC 9834-8): a UUID as one decimal number needs no registered root. */
const UUID_ROOT = '2.25';

export function element(vr: string, ...values: unknown[]): Element {
  return { vr, Value: values };
}

/** A UID of root 2.25 from a UUID (`xxxxxxxx-xxxx-…`). */
export function uidFromUuid(uuid: string): string {
  return `${UUID_ROOT}.${BigInt(`0x${uuid.replace(/-/g, '')}`).toString()}`;
}

/** A fresh UID: a random UUID under 2.25. */
export function newUid(): string {
  return uidFromUuid(crypto.randomUUID());
}

/** The same UID every time for the same name: a name-based UUID (SHA-256, version 8) under 2.25. */
export function uidNamed(name: string): string {
  const bytes = crypto.createHash('sha256').update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x80;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  return `${UUID_ROOT}.${BigInt(`0x${bytes.toString('hex')}`).toString()}`;
}

/** A coded concept: code value, coding scheme designator, code meaning. */
export interface Code {
  value: string;
  scheme: string;
  meaning: string;
}

export function code(value: string, scheme: string, meaning: string): Code {
  return { value, scheme, meaning };
}

/** A code sequence item (PS3.3 Table 8.8-1, basic attributes). */
export function codeItem(concept: Code): Dataset {
  return {
    '00080100': element('SH', concept.value),
    '00080102': element('SH', concept.scheme),
    '00080104': element('LO', concept.meaning),
  };
}

/** A DS value: at most 16 characters (PS3.5 6.2), so ten significant digits at most. */
export function decimal(value: number): string {
  const text = String(Number(value.toPrecision(10)));
  return text.length <= 16 ? text : value.toExponential(8);
}

/** Date (DA) and time (TM) of a moment, in UTC. */
export function dicomDateTime(moment: Date): { date: string; time: string } {
  const iso = moment.toISOString();
  return {
    date: iso.slice(0, 10).replace(/-/g, ''),
    time: `${iso.slice(11, 19).replace(/:/g, '')}.${iso.slice(20, 23)}`,
  };
}

/** A person's name as a DICOM PN: family name, then given names. */
export function personName(firstName: string, lastName: string): string {
  const clean = (part: string) => part.replace(/[\\^=]/g, ' ').trim();
  return `${clean(lastName)}^${clean(firstName)}`;
}

/*
 * SR content items (PS3.3 C.17.3). Each takes the relationship to its parent (undefined for the
 * root) and the children it has.
 */

type Relationship =
  'CONTAINS' | 'HAS OBS CONTEXT' | 'HAS CONCEPT MOD' | 'INFERRED FROM' | 'SELECTED FROM' | 'HAS PROPERTIES';

function contentItem(
  relationship: Relationship | undefined,
  valueType: string,
  concept: Code | undefined,
  values: Dataset,
  children: Dataset[] = [],
): Dataset {
  return {
    ...(relationship && { '0040A010': element('CS', relationship) }),
    '0040A040': element('CS', valueType),
    ...(concept && { '0040A043': element('SQ', codeItem(concept)) }),
    ...values,
    ...(children.length > 0 && { '0040A730': element('SQ', ...children) }),
  };
}

export function container(relationship: Relationship | undefined, concept: Code, children: Dataset[]) {
  return contentItem(relationship, 'CONTAINER', concept, { '0040A050': element('CS', 'SEPARATE') }, children);
}

export function textItem(relationship: Relationship, concept: Code, text: string, children: Dataset[] = []) {
  return contentItem(relationship, 'TEXT', concept, { '0040A160': element('UT', text) }, children);
}

export function codeValueItem(relationship: Relationship, concept: Code, value: Code) {
  return contentItem(relationship, 'CODE', concept, { '0040A168': element('SQ', codeItem(value)) });
}

export function personItem(relationship: Relationship, concept: Code, name: string) {
  return contentItem(relationship, 'PNAME', concept, { '0040A123': element('PN', { Alphabetic: name }) });
}

export function uidItem(relationship: Relationship, concept: Code, uid: string) {
  return contentItem(relationship, 'UIDREF', concept, { '0040A124': element('UI', uid) });
}

export function numItem(
  relationship: Relationship,
  concept: Code,
  value: number,
  unit: Code,
  children: Dataset[] = [],
) {
  const measured: Dataset = {
    '004008EA': element('SQ', codeItem(unit)),
    '0040A30A': element('DS', decimal(value)),
  };
  return contentItem(relationship, 'NUM', concept, { '0040A300': element('SQ', measured) }, children);
}

export function scoordItem(
  relationship: Relationship,
  graphType: string,
  graphData: number[],
  children: Dataset[],
) {
  return contentItem(
    relationship,
    'SCOORD',
    undefined,
    { '00700022': element('FL', ...graphData), '00700023': element('CS', graphType) },
    children,
  );
}

/** An instance one item or evidence list names: its SOP class, SOP instance and, of a multi-frame one, the frame. */
export interface InstanceReference {
  sopClassUid: string;
  sopInstanceUid: string;
  /** Set only for an instance of more than one frame (PS3.3 C.17.3.2.1: Referenced Frame Number is 1C). */
  frame?: number;
}

export function referencedSop(reference: InstanceReference): Dataset {
  return {
    '00081150': element('UI', reference.sopClassUid),
    '00081155': element('UI', reference.sopInstanceUid),
    ...(reference.frame !== undefined && { '00081160': element('IS', reference.frame) }),
  };
}

export function imageItem(relationship: Relationship, reference: InstanceReference) {
  return contentItem(relationship, 'IMAGE', undefined, {
    '00081199': element('SQ', referencedSop(reference)),
  });
}

/** Which template a content tree follows (Content Template Sequence), from DCMR. */
export function templateOf(identifier: string): Dataset {
  return {
    '0040A504': element('SQ', {
      '00080105': element('CS', 'DCMR'),
      '0040DB00': element('CS', identifier),
    }),
  };
}

/**
 * Current Requested Procedure Evidence Sequence: every instance the document names, by study and
 * series (PS3.3 C.17.2.3).
 */
export function evidence(
  studyInstanceUid: string,
  instances: (InstanceReference & { seriesInstanceUid: string })[],
): Dataset {
  const bySeries = new Map<string, Map<string, InstanceReference>>();
  for (const instance of instances) {
    const series = bySeries.get(instance.seriesInstanceUid) ?? new Map<string, InstanceReference>();
    series.set(instance.sopInstanceUid, {
      sopClassUid: instance.sopClassUid,
      sopInstanceUid: instance.sopInstanceUid,
    });
    bySeries.set(instance.seriesInstanceUid, series);
  }
  return {
    '0040A375': element('SQ', {
      '0020000D': element('UI', studyInstanceUid),
      '00081115': element(
        'SQ',
        ...[...bySeries].map(([seriesInstanceUid, sops]) => ({
          '0020000E': element('UI', seriesInstanceUid),
          '00081199': element('SQ', ...[...sops.values()].map(referencedSop)),
        })),
      ),
    }),
  };
}

/** The Implementation Class UID of the files this archive writes. */
const IMPLEMENTATION_CLASS_UID = uidNamed('radiology-archive:implementation:1');

/** Writes a dataset as a Part 10 file in explicit VR little endian. */
export function writePart10(dataset: Dataset): Buffer {
  const sopClassUid = String(dataset['00080016']!.Value[0]);
  const sopInstanceUid = String(dataset['00080018']!.Value[0]);
  const meta = {
    '00020001': element('OB', new Uint8Array([0, 1]).buffer),
    '00020002': element('UI', sopClassUid),
    '00020003': element('UI', sopInstanceUid),
    '00020010': element('UI', TRANSFER_SYNTAX_EXPLICIT_LE),
    '00020012': element('UI', IMPLEMENTATION_CLASS_UID),
    '00020013': element('SH', 'RADARCHIVE'),
  } as DcmjsDataset;
  const file = new dcmjs.data.DicomDict(meta);
  file.dict = dataset;
  return Buffer.from(file.write());
}
