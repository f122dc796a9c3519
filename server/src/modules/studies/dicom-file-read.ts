import fs from 'node:fs/promises';
import { STUDY_MESSAGES, type SkippedFile } from '@ra/shared';
import { DecodeOverLimit } from '../dicom/index.js';
import { readDicomInstance, type DicomInstance } from '../dicom/index.js';
import { DicomReadError } from '../dicom/index.js';
import { clipSummary, instanceBounds, refusalOf } from '../dicom/index.js';
import { hasDicomMarker, startsAsDicom } from '../uploads/index.js';

/*
 * Reading one file that may be DICOM, wherever it came from (a single upload, a ZIP entry, a
 * bundle or STOW-RS part on a part-reader thread): what it holds, or why it cannot be filed.
 */

/** One readable DICOM file among the uploads, not yet in storage. */
export interface DicomFile {
  /** As uploaded; for a file from a ZIP, "<zip name>/<path inside>". */
  name: string;
  /** Where the bytes are now (the tus folder, or the ZIP's extraction folder). */
  path: string;
  size: number;
  instance: DicomInstance;
}

/** A file refused, and the instance it holds when it could be read far enough to name it (for STOW-RS). */
export type RefusedFile = SkippedFile & {
  instance?: Pick<DicomInstance, 'sopClassUid' | 'sopInstanceUid'>;
};

/** Files up to this size are parsed whole; from larger ones only the head (all attributes before the pixels). */
const WHOLE_FILE_BYTES = 64 * 1024 ** 2;
const HEAD_BYTES = 16 * 1024 ** 2;
/** A UID is digits and dots, at most 64 characters (PS3.5 9.1); storage keys are built from them. */
const UID = /^[0-9]+(\.[0-9]+)*$/;

async function readForParsing(file: string, size: number): Promise<Uint8Array> {
  if (size <= WHOLE_FILE_BYTES) {
    return fs.readFile(file);
  }
  const handle = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function hasValidUids(instance: DicomInstance): boolean {
  return [instance.studyInstanceUid, instance.seriesInstanceUid, instance.sopInstanceUid].every(
    (uid) => uid.length <= 64 && UID.test(uid),
  );
}

/**
 * How a file's bytes are parsed: on a decode thread (DecodePool.readInstance) from the main
 * thread, directly where the caller is a worker thread already (dicom-part-worker.ts).
 */
export type InstanceReader = (bytes: Uint8Array) => Promise<DicomInstance>;

/** Parses on the calling thread: only for callers that are a worker thread themselves. */
export const readOnThisThread: InstanceReader = (bytes) => Promise.resolve(readDicomInstance(bytes));

/**
 * Reads one file that may be DICOM: the instance, or why it cannot be filed; undefined for the
 * media index (DICOMDIR), which is not needed. `bytes`, when the caller holds the file's bytes in
 * memory already, spares reading them back.
 */
export async function readDicomFile(
  name: string,
  file: string,
  parse: InstanceReader,
  bytes?: Buffer,
): Promise<{ file: DicomFile } | { skipped: RefusedFile } | undefined> {
  const size = bytes?.length ?? (await fs.stat(file)).size;
  if (!(bytes ? startsAsDicom(bytes) : await hasDicomMarker(file))) {
    return { skipped: { name, reason: STUDY_MESSAGES.notDicom } };
  }
  try {
    const instance = await parse(bytes ?? (await readForParsing(file, size)));
    if (instance.isDicomdir) {
      return undefined;
    }
    if (!hasValidUids(instance)) {
      return { skipped: { name, reason: STUDY_MESSAGES.unreadable } };
    }
    const refusal = refusalOf(instance, instanceBounds());
    if (refusal) {
      const { sopClassUid, sopInstanceUid } = instance;
      return { skipped: { name, reason: refusal, instance: { sopClassUid, sopInstanceUid } } };
    }
    return { file: { name, path: file, size, instance: clipSummary(instance) } };
  } catch (err) {
    // A dataset nested deeper than the stack is a file we cannot read, not a fault of ours.
    if (err instanceof RangeError && /call stack/i.test(err.message)) {
      return { skipped: { name, reason: STUDY_MESSAGES.unreadable } };
    }
    // A file that outgrew a decode thread's time or memory is refused alone, for that reason.
    if (!(err instanceof DicomReadError || err instanceof DecodeOverLimit)) {
      throw err;
    }
    return { skipped: { name, reason: err.message } };
  }
}

/** What reading one file gave: the file to file, a refusal, or nothing (the media index). */
export type FileRead = Awaited<ReturnType<typeof readDicomFile>>;

/** The files read as DICOM, and those that could not be, with why; the media index is neither. */
export function partitionReads(reads: FileRead[]): { files: DicomFile[]; skipped: RefusedFile[] } {
  const files: DicomFile[] = [];
  const skipped: RefusedFile[] = [];
  for (const read of reads) {
    if (read && 'file' in read) {
      files.push(read.file);
    } else if (read) {
      skipped.push(read.skipped);
    }
  }
  return { files, skipped };
}
