import type { DcmjsDataset, DcmjsElement } from 'dcmjs';
import { BINARY_UNIT, binaryBytes } from './bulk-data.js';

/** A dataset as DICOM JSON (PS3.18 Annex F.2): elements keyed by tag, values in `Value` arrays. */
export type DicomJson = { [tag: string]: DicomJsonElement };
export type PersonNameJson = { Alphabetic?: string; Ideographic?: string; Phonetic?: string };
export type DicomJsonValue = string | number | null | PersonNameJson | DicomJson;
export interface DicomJsonElement {
  vr: string;
  Value?: DicomJsonValue[];
  InlineBinary?: string;
  BulkDataURI?: string;
}

/** Binary values up to this size stay inline; larger ones are bulk data the server serves by URI. */
export const MAX_INLINE_BINARY_BYTES = 1024;
/**
 * Text values up to this size stay inline; a longer one (a report pasted into a UT, or a hostile
 * file's 180 MB of text) is bulk data like a large binary, so that no instance's metadata grows
 * with what a file claims.
 */
export const MAX_INLINE_TEXT_BYTES = 64 * 1024;
const BULK_DATA_TAGS = new Set(['7FE00010', '7FE00008', '7FE00009']);
const VRS = new Set(
  'AE AS AT CS DA DS DT FD FL IS LO LT OB OD OF OL OV OW PN SH SL SQ SS ST SV TM UC UI UL UN UR US UT UV'.split(
    ' ',
  ),
);

/** dcmjs keeps the VR it guessed for a reread UN element ('ox', 'xs'); JSON needs a real one. */
function jsonVr(vr: string | undefined): string {
  if (vr !== undefined && VRS.has(vr)) {
    return vr;
  }
  return vr === 'ox' ? 'OW' : vr === 'xs' ? 'US' : 'UN';
}

function personName(value: unknown): PersonNameJson | null {
  if (typeof value !== 'object' || value === null) {
    return typeof value === 'string' && value !== '' ? { Alphabetic: value } : null;
  }
  const name: PersonNameJson = {};
  for (const group of ['Alphabetic', 'Ideographic', 'Phonetic'] as const) {
    const text = (value as Record<string, unknown>)[group];
    if (typeof text === 'string' && text !== '') {
      name[group] = text;
    }
  }
  return Object.keys(name).length > 0 ? name : null;
}

function plainValue(vr: string, value: unknown): DicomJsonValue {
  if (vr === 'AT' && typeof value === 'number') {
    return value.toString(16).toUpperCase().padStart(8, '0');
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? value : null;
  }
  if (typeof value === 'bigint') {
    return value.toString();
  }
  // Trailing NULs are padding some writers use; one inside a value stays, for the file to be refused.
  return typeof value === 'string' && value !== '' ? value.replace(/\0+$/, '') || null : null;
}

/** The characters of an element's text values (an upper bound of their UTF-8 size divided by 3). */
function textLength(values: unknown[]): number {
  let length = 0;
  for (const value of values) {
    if (typeof value === 'string') {
      length += value.length;
    } else if (typeof value === 'object' && value !== null && !(value instanceof ArrayBuffer)) {
      for (const part of Object.values(value)) {
        length += typeof part === 'string' ? part.length : 0;
      }
    }
  }
  return length;
}

interface JsonOptions {
  /** A big-endian file's binary values are swapped to little endian. */
  littleEndian: boolean;
  /** Tags of sequences written as UN that dcmjs read as OB bytes (dicom-structure.ts); they are UN again. */
  opaqueTags?: ReadonlySet<string>;
  /**
   * The URI a bulk value is retrieved from, given its place (bulk-data-path.ts); without it bulk
   * values are left out altogether.
   */
  bulkDataUri?: (path: string) => string;
}

/** A value too large to inline: a reference to it when the caller can serve one, else nothing. */
function bulkElement(vr: string, path: string, options: JsonOptions): DicomJsonElement | undefined {
  return options.bulkDataUri ? { vr, BulkDataURI: options.bulkDataUri(path) } : undefined;
}

function toJsonElement(
  tag: string,
  path: string,
  element: DcmjsElement,
  options: JsonOptions,
): DicomJsonElement | undefined {
  const vr = element.vr === 'OB' && options.opaqueTags?.has(tag) ? 'UN' : jsonVr(element.vr);
  const values: unknown[] = Array.isArray(element.Value) ? element.Value : [];
  const unit = BINARY_UNIT[vr];
  if (unit !== undefined && values.some((value) => value instanceof ArrayBuffer)) {
    const bytes = binaryBytes(values, unit, options.littleEndian);
    if (bytes.length > MAX_INLINE_BINARY_BYTES) {
      return bulkElement(vr, path, options);
    }
    return bytes.length > 0 ? { vr, InlineBinary: bytes.toString('base64') } : { vr };
  }
  if (vr !== 'SQ' && textLength(values) > MAX_INLINE_TEXT_BYTES) {
    return bulkElement(vr, path, options);
  }
  let converted: DicomJsonValue[];
  if (vr === 'SQ') {
    converted = values.map((item, index) =>
      datasetJson((item ?? {}) as DcmjsDataset, `${path}/${index + 1}/`, options),
    );
  } else if (vr === 'PN') {
    converted = values.map(personName);
  } else {
    converted = values.map((value) => plainValue(vr, value));
  }
  const hasValue = vr === 'SQ' ? converted.length > 0 : converted.some((value) => value !== null);
  return hasValue ? { vr, Value: converted } : { vr };
}

/**
 * Converts a dataset as dcmjs reads it into plain DICOM JSON: no File Meta Information, no group
 * lengths (they describe an encoding that is gone), no pixel data (WADO-RS frames serve it), and
 * each binary value over MAX_INLINE_BINARY_BYTES or text over MAX_INLINE_TEXT_BYTES as a
 * `BulkDataURI` (or left out when `bulkDataUri` is not given). Only strings, numbers, null, arrays
 * and objects remain.
 */
export function toDicomJson(dataset: DcmjsDataset, options: JsonOptions): DicomJson {
  return datasetJson(dataset, '', options);
}

/** `prefix` is the place of the dataset's parent item, as in bulk-data-path.ts ('' at the top). */
function datasetJson(dataset: DcmjsDataset, prefix: string, options: JsonOptions): DicomJson {
  const json: DicomJson = {};
  for (const tag of Object.keys(dataset).sort()) {
    const element = dataset[tag];
    const isSkipped =
      !/^[0-9A-F]{8}$/.test(tag) || tag.startsWith('0002') || tag.endsWith('0000') || BULK_DATA_TAGS.has(tag);
    if (element === undefined || isSkipped) {
      continue;
    }
    const converted = toJsonElement(tag, prefix + tag, element, options);
    if (converted) {
      json[tag] = converted;
    }
  }
  return json;
}
