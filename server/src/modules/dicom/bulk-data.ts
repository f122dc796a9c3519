import type { DcmjsDataset } from 'dcmjs';

/**
 * Where a bulk value lies in a dataset, as it appears at the end of its `BulkDataURI`: a top-level
 * tag ("00091010"), or for a value inside a sequence the sequence's tag, the item number from 1
 * and the tag within ("0040A730/2/0040A160"), as deep as sequences nest.
 */
export interface BulkDataPlace {
  tag: string;
  /** The sequence items to go through first: the item number (from 1) within each sequence tag. */
  within: { sequence: string; item: number }[];
}

/**
 * The URI a bulk value of an instance is served at (WADO-RS, `…/bulkdata/{place}`), as a path on
 * this server: metadata is written once at filing, whatever host later reads it.
 */
export function bulkDataUriOf(
  uids: { studyInstanceUid: string; seriesInstanceUid: string; sopInstanceUid: string },
  place: string,
): string {
  const [study, series, instance] = [uids.studyInstanceUid, uids.seriesInstanceUid, uids.sopInstanceUid].map(
    encodeURIComponent,
  );
  return `/dicomweb/studies/${study}/series/${series}/instances/${instance}/bulkdata/${place}`;
}

const TAG = /^[0-9A-F]{8}$/;
const ITEM = /^[1-9][0-9]{0,5}$/;
/** Deeper than any dataset the walk accepts is refused as unknown rather than searched. */
const MAX_DEPTH = 16;

/** The place named by a URI's path, or undefined when the path is not one (tags in upper case). */
export function parseBulkDataPath(path: string): BulkDataPlace | undefined {
  const parts = path.split('/');
  if (parts.length % 2 === 0 || parts.length > 2 * MAX_DEPTH + 1) {
    return undefined;
  }
  const within: BulkDataPlace['within'] = [];
  for (let index = 0; index < parts.length - 1; index += 2) {
    const [sequence, item] = [parts[index]!, parts[index + 1]!];
    if (!TAG.test(sequence) || !ITEM.test(item)) {
      return undefined;
    }
    within.push({ sequence, item: Number(item) });
  }
  const tag = parts[parts.length - 1]!;
  return TAG.test(tag) ? { tag, within } : undefined;
}

/** Binary VRs and the size of the unit whose byte order a big-endian file reverses. */
export const BINARY_UNIT: Readonly<Record<string, number>> = {
  OB: 1,
  UN: 1,
  OW: 2,
  OF: 4,
  OL: 4,
  OD: 8,
  OV: 8,
};

/**
 * The bytes of a binary element's values (dcmjs gives ArrayBuffers), little endian as DICOM JSON
 * and bulk data are: a big-endian file's units of `unit` bytes are swapped (in a new buffer).
 */
export function binaryBytes(values: unknown[], unit: number, isLittleEndian: boolean): Buffer {
  const bytes = Buffer.concat(
    values.filter((value) => value instanceof ArrayBuffer).map((value) => Buffer.from(value)),
  );
  if (isLittleEndian || unit === 1 || bytes.length % unit !== 0) {
    return bytes;
  }
  return unit === 2 ? bytes.swap16() : unit === 4 ? bytes.swap32() : bytes.swap64();
}

function textOf(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'object' && value !== null) {
    // A person name's groups, in their order, as DICOM writes them.
    const name = value as Record<string, unknown>;
    return ['Alphabetic', 'Ideographic', 'Phonetic']
      .map((group) => (typeof name[group] === 'string' ? name[group] : ''))
      .join('=')
      .replace(/=+$/, '');
  }
  return typeof value === 'number' || typeof value === 'bigint' ? String(value) : '';
}

/**
 * The bytes of the value at `place`, as DICOMweb serves bulk data: binary values little endian,
 * text as UTF-8 with multiple values separated by backslashes. Undefined when there is no such
 * value (a sequence has no bulk value of its own).
 */
export function bulkValueOf(
  dataset: DcmjsDataset,
  place: BulkDataPlace,
  options: { littleEndian: boolean },
): Uint8Array | undefined {
  let current: DcmjsDataset | undefined = dataset;
  for (const { sequence, item } of place.within) {
    const element = current[sequence];
    const items: unknown[] = element?.vr === 'SQ' && Array.isArray(element.Value) ? element.Value : [];
    current = items[item - 1] as DcmjsDataset | undefined;
    if (typeof current !== 'object' || current === null) {
      return undefined;
    }
  }
  const element = current[place.tag];
  if (!element || element.vr === 'SQ') {
    return undefined;
  }
  const values: unknown[] = Array.isArray(element.Value) ? element.Value : [];
  const unit = BINARY_UNIT[element.vr ?? ''];
  if (unit !== undefined || values.some((value) => value instanceof ArrayBuffer)) {
    return binaryBytes(values, unit ?? 1, options.littleEndian);
  }
  return Buffer.from(values.map(textOf).join('\\'), 'utf8');
}
