import { STUDY_MESSAGES } from '@ra/shared';
import dcmjs, { type DcmjsDataset } from 'dcmjs';
import { DicomReadError } from './dicom-read-error.js';
import { checkDicomLayout, PIXEL_DATA_TAGS, type DicomLayout } from './dicom-structure.js';

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

/**
 * The bytes dcmjs reads: the file's own buffer when that is the file exactly and nothing needs
 * rewriting, else a copy of what precedes the top-level Pixel Data (dcmjs stops there anyway, so the
 * pixels are never copied), in which UN sequences read as OB (see dicom-structure.ts).
 */
function bytesForDcmjs(bytes: Uint8Array, layout: DicomLayout): ArrayBuffer {
  const pixels = layout.pixelData.get(PIXEL_DATA_TAGS.pixelData);
  // A deflated file is inflated by dcmjs itself, from the whole file.
  const end = pixels && layout.dataset === bytes ? pixels.elementAt : bytes.length;
  if (
    end === bytes.length &&
    bytes.buffer instanceof ArrayBuffer &&
    bytes.byteOffset === 0 &&
    bytes.byteLength === bytes.buffer.byteLength &&
    layout.opaqueSequences.length === 0
  ) {
    return bytes.buffer;
  }
  // A copy: a view's buffer may hold other data around this file.
  const copy = new Uint8Array(bytes.subarray(0, end));
  for (const { vrAt } of layout.opaqueSequences) {
    copy[vrAt] = 0x4f;
    copy[vrAt + 1] = 0x42;
  }
  return copy.buffer;
}

/**
 * Reads a Part 10 file: its structure is checked first (see dicom-structure.ts), then dcmjs reads the
 * elements, stopping at the Pixel Data so the pixels are never copied just to read the metadata.
 */
export function parseDicom(bytes: Uint8Array): ParsedDicom {
  const layout = checkDicomLayout(bytes);
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
