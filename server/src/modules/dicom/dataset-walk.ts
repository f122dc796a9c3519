import { STUDY_MESSAGES } from '@ra/shared';
import dcmjs from 'dcmjs';
import { DicomReadError, READ_LIMIT_MESSAGES } from './dicom-read-error.js';

/**
 * Walks DICOM elements the way dcmjs 0.50 reads them (its VR rules, its dictionary for implicit VR,
 * its scan for the end of an undefined-length item), checking that every length fits the bytes that
 * hold it. dicom-structure.ts says why.
 */

/** Deeper nesting than any real dataset has; dcmjs recurses once per level. */
const MAX_NESTING = 32;
/**
 * More elements than a dataset the archive keeps can hold: even at their smallest, this many make
 * metadata past the 1 MiB an instance may have, and dcmjs takes seconds over a million of them.
 */
export const MAX_ELEMENTS = 100_000;
const UNDEFINED_LENGTH = 0xffffffff;
const ITEM = 0xfffee000;
const ITEM_END = 0xfffee00d;
const SEQUENCE_END = 0xfffee0dd;

/** The VRs dcmjs reads with a two-byte explicit length; it reads any other VR, even an unknown one, as UN. */
const SHORT_LENGTH_VRS = new Set('AE AS AT CS DA DS DT FL FD IS LO LT PN SH SL SS ST TM UI UL US'.split(' '));
const LONG_LENGTH_VRS = new Set('OB OD OF OW SQ UC UN UR UT'.split(' '));
/** The VRs whose undefined length dcmjs reads as encapsulated fragments. */
const FRAGMENT_VRS = new Set('OB OD OF OW UN'.split(' '));

export interface Fragment {
  /** Where the fragment's item starts, counted from the first fragment's item (as the offset table counts). */
  itemOffset: number;
  offset: number;
  length: number;
}

/**
 * Where an element lies (`elementAt`: its tag's first byte) and its value: in one piece, or
 * (undefined length) as an offset table and fragments.
 */
export type ValueLayout =
  | { tag: number; elementAt: number; kind: 'native'; vr: string; offset: number; length: number }
  | { tag: number; elementAt: number; kind: 'encapsulated'; offsetTable: number[]; fragments: Fragment[] };

/** A sequence written with VR UN, whose VR bytes (at `vrAt` in the file) must read OB for dcmjs. */
export interface OpaqueSequence {
  tag: string;
  vrAt: number;
}

export interface Walk {
  bytes: Uint8Array;
  view: DataView;
  littleEndian: boolean;
  explicitVr: boolean;
  /** Top-level elements whose place is wanted, and where they were found. */
  wanted: ReadonlySet<number>;
  found: Map<number, ValueLayout>;
  /** Whether dcmjs will read these very bytes, so that a VR can be rewritten in its copy of them. */
  canRewrite: boolean;
  opaqueSequences: OpaqueSequence[];
  /** Elements walked so far, nested ones included (bounded by MAX_ELEMENTS). */
  elements: number;
  /**
   * Stop at the first top-level pixel data element, recorded with its header alone: only the
   * attributes before it are wanted, and its value may not have been inflated (dicom-structure.ts).
   */
  stopAtPixels?: boolean;
}

export function refuse(): never {
  throw new DicomReadError(STUDY_MESSAGES.unreadable);
}

export function need(condition: boolean): asserts condition {
  if (!condition) {
    refuse();
  }
}

/** dcmjs reads 'ox' as OW, 'xs' as US and any VR it does not know as UN. */
function dcmjsVr(vr: string): string {
  if (SHORT_LENGTH_VRS.has(vr) || LONG_LENGTH_VRS.has(vr)) {
    return vr;
  }
  return vr === 'ox' ? 'OW' : vr === 'xs' ? 'US' : 'UN';
}

function dictionaryVr(tag: number): string | undefined {
  const entry = dcmjs.data.DicomMessage.lookupTag(dcmjs.data.Tag.fromNumbers(tag >>> 16, tag & 0xffff));
  return entry ? dcmjsVr(entry.vr) : undefined;
}

function hexTag(tag: number): string {
  return tag.toString(16).toUpperCase().padStart(8, '0');
}

export function readTag(walk: Walk, at: number): number {
  return (
    ((walk.view.getUint16(at, walk.littleEndian) << 16) | walk.view.getUint16(at + 2, walk.littleEndian)) >>>
    0
  );
}

export function walkDataset(walk: Walk, from: number, end: number, depth: number): void {
  let at = from;
  while (at < end) {
    at = walkElement(walk, at, end, depth);
  }
}

export function walkElement(walk: Walk, at: number, end: number, depth: number): number {
  walk.elements += 1;
  if (walk.elements > MAX_ELEMENTS) {
    throw new DicomReadError(READ_LIMIT_MESSAGES.tooManyElements);
  }
  const { view, littleEndian } = walk;
  need(at + 8 <= end);
  const tag = readTag(walk, at);
  // Item and delimitation tags belong to sequences; inside a dataset they mean the bytes are not one.
  need(tag >>> 16 !== 0xfffe);
  let vr: string;
  let length: number;
  let valueAt: number;
  let isReparsedUnknown = false;
  if (walk.explicitVr) {
    const written = String.fromCharCode(walk.bytes[at + 4]!, walk.bytes[at + 5]!);
    const known = written === 'UN' ? dictionaryVr(tag) : undefined;
    // dcmjs reads a UN element of a tag it knows as bytes, then parses those bytes with the known VR.
    isReparsedUnknown = known !== undefined;
    vr = known ?? dcmjsVr(written);
    if (isReparsedUnknown || !SHORT_LENGTH_VRS.has(vr)) {
      need(at + 12 <= end);
      length = view.getUint32(at + 8, littleEndian);
      valueAt = at + 12;
    } else {
      length = view.getUint16(at + 6, littleEndian);
      valueAt = at + 8;
    }
  } else {
    length = view.getUint32(at + 4, littleEndian);
    valueAt = at + 8;
    vr = dictionaryVr(tag) ?? (length === UNDEFINED_LENGTH ? 'SQ' : 'UN');
  }
  if (depth === 0 && walk.stopAtPixels && walk.wanted.has(tag)) {
    walk.found.set(tag, { tag, elementAt: at, kind: 'native', vr, offset: valueAt, length: 0 });
    return end;
  }
  if (vr === 'SQ' && isReparsedUnknown) {
    // A sequence written as UN holds implicit VR little endian (CP-246), which dcmjs would parse with
    // the file's syntax instead, reading lengths out of the middle of values. Its VR is rewritten to
    // OB before dcmjs reads it, so the value stays opaque bytes, as a viewer that did not know the tag
    // would keep it. dcmjs would take an undefined length for fragments, and a deflated dataset is
    // inflated anew by dcmjs, out of reach of the rewrite: both are refused.
    need(length !== UNDEFINED_LENGTH && valueAt + length <= end && walk.canRewrite);
    walk.opaqueSequences.push({ tag: hexTag(tag), vrAt: at + 4 });
    return valueAt + length;
  }
  if (vr === 'SQ') {
    return walkSequence(walk, valueAt, length, end, depth + 1);
  }
  if (length === UNDEFINED_LENGTH) {
    need(!isReparsedUnknown && FRAGMENT_VRS.has(vr));
    return walkFragments(walk, tag, at, valueAt, end, depth);
  }
  need(valueAt + length <= end);
  if (depth === 0 && walk.wanted.has(tag)) {
    walk.found.set(tag, { tag, elementAt: at, kind: 'native', vr, offset: valueAt, length });
  }
  return valueAt + length;
}

function walkSequence(walk: Walk, from: number, length: number, end: number, depth: number): number {
  need(depth <= MAX_NESTING);
  if (length === 0) {
    return from;
  }
  const isDefined = length !== UNDEFINED_LENGTH;
  const sequenceEnd = isDefined ? from + length : end;
  need(sequenceEnd <= end);
  let at = from;
  for (;;) {
    need(at + 8 <= sequenceEnd);
    const tag = readTag(walk, at);
    const itemLength = walk.view.getUint32(at + 4, walk.littleEndian);
    at += 8;
    if (tag === SEQUENCE_END && !isDefined) {
      return at;
    }
    need(tag === ITEM);
    if (itemLength === UNDEFINED_LENGTH) {
      const itemEnd = findItemEnd(walk, at, sequenceEnd);
      walkDataset(walk, at, itemEnd, depth);
      at = itemEnd + 8;
    } else {
      need(at + itemLength <= sequenceEnd);
      walkDataset(walk, at, at + itemLength, depth);
      at += itemLength;
    }
    if (isDefined && at === sequenceEnd) {
      return at;
    }
  }
}

/**
 * Where an undefined-length item ends, found as dcmjs finds it: by scanning 16-bit words for an item
 * delimiter, counting nested undefined-length items. The item's elements are then walked up to that
 * point, so an item dcmjs would cut short is refused rather than parsed two ways.
 */
function findItemEnd(walk: Walk, from: number, end: number): number {
  const { view, littleEndian } = walk;
  let nested = 0;
  let at = from;
  while (at + 2 <= end) {
    if (view.getUint16(at, littleEndian) !== 0xfffe) {
      at += 2;
      continue;
    }
    need(at + 8 <= end);
    const tag = readTag(walk, at);
    const length = view.getUint32(at + 4, littleEndian);
    if (tag === ITEM_END) {
      // dcmjs miscounts a delimiter with a non-zero length, so its item would not be this one.
      need(length === 0);
      if (nested === 0) {
        return at;
      }
      nested -= 1;
      at += 4;
    } else if (tag === ITEM) {
      if (length === UNDEFINED_LENGTH) {
        nested += 1;
      }
      at += 4;
    } else {
      at += 2;
    }
  }
  return refuse();
}

function walkFragments(
  walk: Walk,
  tag: number,
  elementAt: number,
  from: number,
  end: number,
  depth: number,
): number {
  const { view, littleEndian } = walk;
  need(from + 8 <= end && readTag(walk, from) === ITEM);
  const tableLength = view.getUint32(from + 4, littleEndian);
  need(tableLength % 4 === 0 && from + 8 + tableLength <= end);
  const offsetTable: number[] = [];
  for (let at = from + 8; at < from + 8 + tableLength; at += 4) {
    offsetTable.push(view.getUint32(at, littleEndian));
  }
  const firstItem = from + 8 + tableLength;
  const fragments: Fragment[] = [];
  let at = firstItem;
  for (;;) {
    need(at + 8 <= end);
    const itemTag = readTag(walk, at);
    const length = view.getUint32(at + 4, littleEndian);
    if (itemTag === SEQUENCE_END) {
      need(length === 0);
      at += 8;
      break;
    }
    need(itemTag === ITEM && length !== UNDEFINED_LENGTH && at + 8 + length <= end);
    fragments.push({ itemOffset: at - firstItem, offset: at + 8, length });
    at += 8 + length;
  }
  // dcmjs cuts frames at the offsets the table gives; one that is not a fragment's start is refused,
  // since dcmjs would read an item header out of the middle of compressed data.
  const starts = new Set(fragments.map((fragment) => fragment.itemOffset));
  need(offsetTable.every((offset, i) => starts.has(offset) && (i === 0 || offset > offsetTable[i - 1]!)));
  if (depth === 0 && walk.wanted.has(tag)) {
    walk.found.set(tag, { tag, elementAt, kind: 'encapsulated', offsetTable, fragments });
  }
  return at;
}
