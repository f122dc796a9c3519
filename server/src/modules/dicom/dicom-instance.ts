import { STUDY_MESSAGES } from '@ra/shared';
import { bulkDataUriOf } from './bulk-data.js';
import { toDicomJson, type DicomJson } from './dicom-json.js';
import type { DcmjsDataset } from 'dcmjs';
import { parseDicom } from './dicom-parser.js';
import { frameOffsetsOf } from './frame-offsets.js';
import { PIXEL_DATA_TAGS, type DicomLayout } from './dicom-structure.js';
import { DicomReadError, PREVIEW_MESSAGES } from './dicom-read-error.js';
import { readDate, readInteger, readString } from './dicom-values.js';
import { sopClassName } from './sop-classes.js';

const MEDIA_STORAGE_DIRECTORY = '1.2.840.10008.1.3.10';

/** What the archive keeps of one DICOM file (a SOP instance), read without its pixels. */
export interface DicomInstance {
  sopInstanceUid: string;
  sopClassUid: string;
  /** '' only for a DICOMDIR, which belongs to no study. */
  studyInstanceUid: string;
  seriesInstanceUid: string;
  transferSyntaxUid: string;
  /** As DICOM writes it, "Family^Given^Middle^Prefix^Suffix" without trailing carets; '' if none. */
  patientName: string;
  patientId: string;
  /** YYYY-MM-DD, or null when absent or not a date. */
  patientBirthDate: string | null;
  patientSex: string;
  studyDate: string | null;
  /** As written (HHMMSS.FFFFFF, possibly shorter). */
  studyTime: string;
  studyDescription: string;
  accessionNumber: string;
  studyId: string;
  referringPhysicianName: string;
  modality: string;
  seriesNumber: number | null;
  seriesDescription: string;
  bodyPartExamined: string;
  instanceNumber: number | null;
  rows: number | null;
  columns: number | null;
  numberOfFrames: number;
  bitsAllocated: number | null;
  samplesPerPixel: number | null;
  photometricInterpretation: string;
  /** Has rows, columns and pixel data; reports, plans and structure sets have none. */
  isImage: boolean;
  isDicomdir: boolean;
  sopClassName: string;
  /** The dataset as DICOM JSON, without group 0002, bulk data by URI (see dicom-json.ts). */
  metadata: DicomJson;
  /** Where uncompressed frames lie in the file, when each is a plain run of bytes to send as is. */
  nativeFrames: NativeFrames | null;
  /** Where compressed frames lie in the file (frame-offsets.ts), so one is read without the rest. */
  frameOffsets: number[] | null;
}

/** Frame n (from 1) is the `frameBytes` bytes at `offset + (n - 1) × frameBytes` of the file. */
export interface NativeFrames {
  offset: number;
  frameBytes: number;
}

/**
 * Reads a Part 10 file's metadata. Throws DicomReadError: notDicom without the "DICM" preamble,
 * unreadable when the file is damaged or names no study, series or instance.
 */
export function readDicomInstance(bytes: Uint8Array): DicomInstance {
  // Only the attributes are kept: a deflated file's pixels are never inflated to file it.
  const { layout, meta, dataset } = parseDicom(bytes, { isHeadOnly: true });
  const sopClassUid = readString(dataset, '00080016') || readString(meta, '00020002');
  const isDicomdir = readString(meta, '00020002') === MEDIA_STORAGE_DIRECTORY;
  const instance = {
    sopInstanceUid: readString(dataset, '00080018') || readString(meta, '00020003'),
    sopClassUid,
    studyInstanceUid: readString(dataset, '0020000D'),
    seriesInstanceUid: readString(dataset, '0020000E'),
    transferSyntaxUid: layout.transferSyntaxUid,
  };
  const isMissingUid = !instance.sopInstanceUid || !instance.studyInstanceUid || !instance.seriesInstanceUid;
  if (isMissingUid && !isDicomdir) {
    throw new DicomReadError(STUDY_MESSAGES.unreadable);
  }
  const rows = readInteger(dataset, '00280010');
  const columns = readInteger(dataset, '00280011');
  const frames = readInteger(dataset, '00280008');
  return {
    ...instance,
    patientName: readString(dataset, '00100010'),
    patientId: readString(dataset, '00100020'),
    patientBirthDate: readDate(dataset, '00100030'),
    patientSex: readString(dataset, '00100040'),
    studyDate: readDate(dataset, '00080020'),
    studyTime: readString(dataset, '00080030'),
    studyDescription: readString(dataset, '00081030'),
    accessionNumber: readString(dataset, '00080050'),
    studyId: readString(dataset, '00200010'),
    referringPhysicianName: readString(dataset, '00080090'),
    modality: readString(dataset, '00080060'),
    seriesNumber: readInteger(dataset, '00200011'),
    seriesDescription: readString(dataset, '0008103E'),
    bodyPartExamined: readString(dataset, '00180015'),
    instanceNumber: readInteger(dataset, '00200013'),
    rows,
    columns,
    numberOfFrames: frames !== null && frames > 0 ? frames : 1,
    bitsAllocated: readInteger(dataset, '00280100'),
    samplesPerPixel: readInteger(dataset, '00280002'),
    photometricInterpretation: readString(dataset, '00280004'),
    isImage: Boolean(rows && columns && layout.pixelData.size > 0),
    isDicomdir,
    sopClassName: sopClassName(sopClassUid),
    nativeFrames: nativeFramesOf(bytes, layout, dataset),
    frameOffsets: frameOffsetsOf(bytes, layout, frames !== null && frames > 0 ? frames : 1),
    metadata: toDicomJson(dataset, {
      littleEndian: layout.littleEndian,
      opaqueTags: new Set(layout.opaqueSequences.map((sequence) => sequence.tag)),
      bulkDataUri: (place) => bulkDataUriOf(instance, place),
    }),
  };
}

/**
 * The frames' place in the file, when WADO-RS can send them as they lie: uncompressed, little
 * endian, not deflated (so offsets in the dataset are offsets in the file), whole bytes per frame
 * (not 1-bit, not YBR_FULL_422's shared chroma), and all the frames the header announces present.
 */
function nativeFramesOf(bytes: Uint8Array, layout: DicomLayout, dataset: DcmjsDataset): NativeFrames | null {
  const value = layout.pixelData.get(PIXEL_DATA_TAGS.pixelData);
  const rows = readInteger(dataset, '00280010') ?? 0;
  const columns = readInteger(dataset, '00280011') ?? 0;
  const samples = Math.max(1, readInteger(dataset, '00280002') ?? 1);
  const bitsAllocated = readInteger(dataset, '00280100') ?? 0;
  const frames = Math.max(1, readInteger(dataset, '00280008') ?? 1);
  const isPlain =
    value?.kind === 'native' &&
    layout.littleEndian &&
    layout.dataset === bytes &&
    bitsAllocated >= 8 &&
    bitsAllocated % 8 === 0 &&
    readString(dataset, '00280004') !== 'YBR_FULL_422';
  const frameBytes = (rows * columns * samples * bitsAllocated) / 8;
  if (!isPlain || frameBytes === 0 || value.length < frames * frameBytes) {
    return null;
  }
  return { offset: value.offset, frameBytes };
}

/**
 * Refuses, before anything is decoded, a frame larger than `maxPixels` samples (rows × columns ×
 * samples per pixel): decoders allocate what the header claims, and a small file can claim 4 billion.
 */
export function assertRenderable(
  instance: Pick<DicomInstance, 'isImage' | 'rows' | 'columns' | 'samplesPerPixel'>,
  maxPixels: number,
): void {
  if (!instance.isImage || !instance.rows || !instance.columns) {
    throw new DicomReadError(PREVIEW_MESSAGES.notRenderable);
  }
  if (instance.rows * instance.columns * Math.max(1, instance.samplesPerPixel ?? 1) > maxPixels) {
    throw new DicomReadError(PREVIEW_MESSAGES.tooLarge);
  }
}
