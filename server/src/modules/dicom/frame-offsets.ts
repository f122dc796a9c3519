import { PIXEL_DATA_TAGS, type DicomLayout } from './dicom-structure.js';

/** More frames than this are not indexed: the offsets are kept in the instance's row. */
const MAX_INDEXED_FRAMES = 100_000;
/** An item's tag and length, before each fragment's bytes. */
const ITEM_HEADER_BYTES = 8;

/**
 * Where each compressed frame lies in the file: n + 1 offsets, frame n (from 1) being the fragment
 * items (headers included) from offset n − 1 up to offset n. Frames are told apart the way
 * pixel-frames.ts takes them out: one frame takes every fragment, a Basic Offset Table with an
 * entry per frame gives each frame's first item, or else there must be one fragment per frame.
 * Null when the pixel data is not encapsulated, lies in a deflated dataset (whose offsets are not
 * the file's), or its frames cannot be told apart; WADO-RS then reads the whole file.
 */
export function frameOffsetsOf(
  bytes: Uint8Array,
  layout: DicomLayout,
  numberOfFrames: number,
): number[] | null {
  const value = layout.pixelData.get(PIXEL_DATA_TAGS.pixelData);
  if (value?.kind !== 'encapsulated' || layout.dataset !== bytes || value.fragments.length === 0) {
    return null;
  }
  if (numberOfFrames > MAX_INDEXED_FRAMES) {
    return null;
  }
  const { fragments, offsetTable } = value;
  const firstItem = fragments[0]!.offset - ITEM_HEADER_BYTES;
  const last = fragments[fragments.length - 1]!;
  const end = last.offset + last.length;
  let starts: number[];
  if (numberOfFrames === 1) {
    starts = [firstItem];
  } else if (offsetTable.length === numberOfFrames) {
    // The walk has checked that each entry is a fragment's start, in increasing order.
    starts = offsetTable.map((offset) => firstItem + offset);
  } else if (fragments.length === numberOfFrames) {
    starts = fragments.map((fragment) => fragment.offset - ITEM_HEADER_BYTES);
  } else {
    return null;
  }
  return [...starts, end];
}
