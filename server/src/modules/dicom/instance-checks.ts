import { STUDY_MESSAGES } from '@ra/shared';
import type { DicomInstance } from './dicom-instance.js';
import type { DicomJson, DicomJsonValue } from './dicom-json.js';

/** A UID is digits and dots, at most 64 characters (PS3.5 9.1). */
const UID = /^[0-9]+(\.[0-9]+)*$/;
/** What the archive stores integer attributes in (PostgreSQL integer). */
const MAX_STORED_INTEGER = 2 ** 31 - 1;

/** The bounds an instance is held to before it is filed (config.ts `dicom`). */
export interface InstanceBounds {
  /** The instance's metadata as DICOM JSON text, at most this many bytes. */
  maxMetadataBytes: number;
}

function isUid(value: string): boolean {
  return value.length <= 64 && UID.test(value);
}

function holdsNul(value: DicomJsonValue | undefined): boolean {
  if (typeof value === 'string') {
    return value.includes('\u0000');
  }
  if (value === null || typeof value !== 'object') {
    return false;
  }
  return Object.values(value).some((part) =>
    typeof part === 'string' ? part.includes('\u0000') : isDataset(part) && datasetHoldsNul(part),
  );
}

function isDataset(value: unknown): value is DicomJson {
  return typeof value === 'object' && value !== null;
}

/** Whether any text of the dataset, nested items included, holds a NUL (PostgreSQL cannot store one). */
function datasetHoldsNul(dataset: DicomJson): boolean {
  // Iterative, so a file nesting sequences thousands deep cannot exhaust the stack.
  const pending: DicomJson[] = [dataset];
  while (pending.length > 0) {
    const current = pending.pop()!;
    for (const element of Object.values(current)) {
      for (const value of element?.Value ?? []) {
        if (element.vr === 'SQ' && isDataset(value)) {
          pending.push(value);
        } else if (holdsNul(value)) {
          return true;
        }
      }
    }
  }
  return false;
}

/**
 * Why the archive cannot keep this instance as it reads, or undefined when it can: a Transfer
 * Syntax UID that is not a UID (a CRLF in it once broke the retrieval of a whole study), a NUL
 * in any text, an integer the archive stores beyond what its column holds, or metadata over the
 * bound. Each refuses this instance alone; the rest of its request is filed.
 */
export function refusalOf(instance: DicomInstance, bounds: InstanceBounds): string | undefined {
  if (!isUid(instance.transferSyntaxUid)) {
    return STUDY_MESSAGES.badTransferSyntax;
  }
  const integers = [
    instance.instanceNumber,
    instance.seriesNumber,
    instance.numberOfFrames,
    instance.rows,
    instance.columns,
  ];
  if (integers.some((value) => value !== null && Math.abs(value) > MAX_STORED_INTEGER)) {
    return STUDY_MESSAGES.numberOutOfRange;
  }
  if (datasetHoldsNul(instance.metadata)) {
    return STUDY_MESSAGES.nulInText;
  }
  if (Buffer.byteLength(JSON.stringify(instance.metadata)) > bounds.maxMetadataBytes) {
    return STUDY_MESSAGES.metadataTooLarge;
  }
  return undefined;
}

/** The default of DICOM_MAX_METADATA_BYTES: one instance's metadata, as DICOM JSON text. */
export const DEFAULT_MAX_METADATA_BYTES = 1024 * 1024;

/**
 * The bounds in force, from the environment (config.ts validates the same variable at start);
 * read here because files are also read on worker threads, which have no app context.
 */
export function instanceBounds(env: NodeJS.ProcessEnv = process.env): InstanceBounds {
  const configured = Number(env.DICOM_MAX_METADATA_BYTES);
  return {
    maxMetadataBytes:
      Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_MAX_METADATA_BYTES,
  };
}

/** What lists show of a study or series: a value longer than any real one is cut here. */
const MAX_SUMMARY_CHARACTERS = 256;

/**
 * The instance with the attributes that lists and search columns hold cut to a sane length: a
 * StudyDescription (64 characters at most by its VR) of 20 MB must not flow into every list.
 */
export function clipSummary(instance: DicomInstance): DicomInstance {
  const clip = (text: string) =>
    text.length > MAX_SUMMARY_CHARACTERS ? text.slice(0, MAX_SUMMARY_CHARACTERS) : text;
  return {
    ...instance,
    patientName: clip(instance.patientName),
    patientId: clip(instance.patientId),
    patientSex: clip(instance.patientSex),
    studyTime: clip(instance.studyTime),
    studyDescription: clip(instance.studyDescription),
    accessionNumber: clip(instance.accessionNumber),
    studyId: clip(instance.studyId),
    referringPhysicianName: clip(instance.referringPhysicianName),
    modality: clip(instance.modality),
    seriesDescription: clip(instance.seriesDescription),
    bodyPartExamined: clip(instance.bodyPartExamined),
  };
}
