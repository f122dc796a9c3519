import { STUDY_MESSAGES } from '@ra/shared';
import dcmjs, { type DcmjsDataset } from 'dcmjs';
import { DicomReadError } from './dicom-read-error.js';
import {
  checkDicomLayout,
  PIXEL_DATA_TAGS,
  TRANSFER_SYNTAX,
  type DicomLayout,
  type DicomReadLimits,
} from './dicom-structure.js';

// dcmjs reports odd VRs and character sets through loglevel on the console, once per element; what
// matters to us is thrown, and the server logs through its own logger, so these stay quiet.
dcmjs.log.setLevel('silent');
dcmjs.log.getLogger('validation.dcmjs').setLevel('silent');

export interface ParsedDicom {
  layout: DicomLayout;
  /** The File Meta Information (group 0002), as dcmjs reads it. */
  meta: DcmjsDataset;
  /** The dataset up to, not including, the top-level Pixel Data (whose place `layout` gives). */
  dataset: DcmjsDataset;
}

/** Explicit VR Little Endian padded with NULs to the length of the deflated syntax's UID (22 bytes). */
const INFLATED_SYNTAX = Buffer.from(TRANSFER_SYNTAX.explicitLittleEndian.padEnd(22, '\0'), 'latin1');

/**
 * Where the transfer syntax UID's value lies in the File Meta Information: the only Transfer Syntax
 * UID element there, which the meta walk has already found to be well formed (dicom-structure.ts).
 */
function syntaxValueAt(bytes: Uint8Array, metaEnd: number): number {
  const tag = Buffer.from([0x02, 0x00, 0x10, 0x00, 0x55, 0x49]);
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, metaEnd).indexOf(tag, 132);
  return at < 0 ? -1 : at + 8;
}

/**
 * The bytes dcmjs reads: the file's own buffer when that is the file exactly and nothing needs
 * rewriting, else a copy of what precedes the top-level Pixel Data (dcmjs stops there anyway, so the
 * pixels are never copied), in which UN sequences read as OB (see dicom-structure.ts).
 *
 * A deflated file was inflated once already by the structure check; dcmjs would inflate the whole
 * file a second time, without any bound. It is given the File Meta Information followed by the
 * inflated dataset instead, relabelled Explicit VR Little Endian (what a deflated dataset is once
 * inflated), padded to the same length so the meta's group length still holds.
 */
function bytesForDcmjs(bytes: Uint8Array, layout: DicomLayout): ArrayBuffer {
  const pixels = layout.pixelData.get(PIXEL_DATA_TAGS.pixelData);
  const isInflated = layout.dataset !== bytes;
  const datasetEnd = pixels ? pixels.elementAt : layout.dataset.length;
  if (
    !isInflated &&
    datasetEnd === bytes.length &&
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength &&
    layout.opaqueSequences.length === 0
  ) {
    return bytes.buffer;
  }
  // A copy: a view's buffer may hold other data around this file.
  let copy: Uint8Array<ArrayBuffer>;
  let shift = 0;
  if (isInflated) {
    const head = bytes.subarray(0, layout.datasetStart);
    copy = new Uint8Array(head.length + datasetEnd);
    copy.set(head);
    copy.set(layout.dataset.subarray(0, datasetEnd), head.length);
    const syntaxAt = syntaxValueAt(bytes, layout.datasetStart);
    if (syntaxAt < 0 || Buffer.from(copy.buffer).readUInt16LE(syntaxAt - 2) !== INFLATED_SYNTAX.length) {
      throw new DicomReadError(STUDY_MESSAGES.unreadable);
    }
    copy.set(INFLATED_SYNTAX, syntaxAt);
    shift = head.length;
  } else {
    copy = new Uint8Array(bytes.subarray(0, datasetEnd));
  }
  for (const { vrAt } of layout.opaqueSequences) {
    copy[shift + vrAt] = 0x4f;
    copy[shift + vrAt + 1] = 0x42;
  }
  return copy.buffer;
}

/**
 * Reads a Part 10 file: its structure is checked first (see dicom-structure.ts), then dcmjs reads the
 * elements, stopping at the Pixel Data so the pixels are never copied just to read the metadata.
 */
export function parseDicom(bytes: Uint8Array, limits: DicomReadLimits = {}): ParsedDicom {
  const layout = checkDicomLayout(bytes, limits);
  let read: { meta: DcmjsDataset; dict: DcmjsDataset };
  try {
    // With errors ignored, a character set dcmjs cannot decode (several ISO 2022 code extensions,
    // say) costs the names their accents instead of the whole file. Any other error ends the read
    // early, and the instance is then refused for lacking its UIDs or read without what followed.
    read = dcmjs.data.DicomMessage.readFile(bytesForDcmjs(bytes, layout), {
      ignoreErrors: true,
      untilTag: '7FE00010',
    });
  } catch (error) {
    throw new DicomReadError(STUDY_MESSAGES.unreadable, { cause: error });
  }
  // The placeholder dcmjs leaves for the tag it stopped at (no VR, no value).
  const dataset = { ...read.dict };
  delete dataset['7FE00010'];
  return { layout, meta: read.meta, dataset };
}
