import fs from 'node:fs/promises';
import path from 'node:path';
import { inParallel, STUDY_MESSAGES, type SkippedFile } from '@ra/shared';
import { readDicomInstance, type DicomInstance } from '../dicom/dicom-instance.js';
import { DecodeOverLimit } from '../dicom/decode-pool.js';
import { DicomReadError } from '../dicom/dicom-read-error.js';
import { clipSummary, instanceBounds, refusalOf } from '../dicom/instance-checks.js';
import { extractZip, ZIP_LIMITS, ZipRefused } from '../dicom/zip-extract.js';
import { hasDicomMarker, startsAsDicom, type DicomPurpose } from '../uploads/dicom-upload.js';
import { BundleRefused, extractBundle } from './study-bundle.js';
import { earlyBundleReads } from './early-bundle-reads.js';
import type { PartRead as Read } from './dicom-part-readers.js';

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

export interface UploadToRead {
  id: string;
  purpose: DicomPurpose;
  filename: string;
}

/** Files read at the same time when filing uploads. */
export const FILES_READ_AT_ONCE = 8;
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

export interface DicomUploads {
  files: DicomFile[];
  skipped: SkippedFile[];
  /**
   * What a ZIP refused (the whole archive, by its reason; a file in it, by its name and reason),
   * also among `skipped`: those files were never read, so when nothing could be filed this, not
   * "no DICOM", is why.
   */
  refusals: string[];
}

/**
 * Reads every DICOM file of the uploads: single files and the contents of ZIPs. What cannot be
 * filed is returned with its reason. `workDir` receives what ZIPs hold; the caller removes it.
 * A file in a ZIP may inflate to `maxInstanceBytes` at most.
 */
export async function readDicomUploads(
  uploads: UploadToRead[],
  tusDir: string,
  workDir: string,
  parse: InstanceReader,
  maxInstanceBytes = ZIP_LIMITS.maxEntryBytes,
  /** What ZIPs may inflate to in all: the uploader's remaining storage, counted as they inflate. */
  maxZipBytes = ZIP_LIMITS.maxTotalBytes,
): Promise<DicomUploads> {
  // Every file to read, in the order of the uploads and of each ZIP's entries; bundles are read as
  // they are taken apart.
  const toRead: { name: string; path: string }[] = [];
  const bundled: Read[] = [];
  const skipped: SkippedFile[] = [];
  const refusals: string[] = [];
  for (const upload of uploads) {
    const uploaded = path.join(tusDir, upload.id);
    if (upload.purpose === 'dicom') {
      toRead.push({ name: upload.filename, path: uploaded });
      continue;
    }
    if (upload.purpose === 'dicom-bundle') {
      // Read as they come out of the bundle, or when its upload finished; a bundle cut short files
      // none of its files.
      const dir = path.join(workDir, upload.id);
      try {
        bundled.push(
          ...((await earlyBundleReads.takeInto(upload.id, dir)) ?? (await extractBundle(uploaded, dir))),
        );
      } catch (err) {
        if (!(err instanceof BundleRefused)) {
          throw err;
        }
        skipped.push({ name: upload.filename, reason: err.message });
      }
      continue;
    }
    try {
      const extracted = await extractZip(uploaded, path.join(workDir, upload.id), maxZipBytes, {
        ...ZIP_LIMITS,
        maxEntryBytes: maxInstanceBytes,
      });
      for (const entry of extracted.skipped) {
        const name = `${upload.filename}/${entry.name}`;
        skipped.push({ name, reason: entry.reason });
        refusals.push(`${name}: ${entry.reason}`);
      }
      for (const entry of extracted.files) {
        toRead.push({ name: `${upload.filename}/${entry.name}`, path: entry.path });
      }
    } catch (err) {
      if (!(err instanceof ZipRefused)) {
        throw err;
      }
      skipped.push({ name: upload.filename, reason: err.message });
      refusals.push(err.message);
    }
  }
  // A few at a time: reading waits on the disk far more than parsing uses the processor.
  const reads = new Array<Read>(toRead.length);
  await inParallel([...toRead.keys()], FILES_READ_AT_ONCE, async (index) => {
    reads[index] = await readDicomFile(toRead[index]!.name, toRead[index]!.path, parse);
  });
  const sorted = sortReads([...bundled, ...reads]);
  return { files: sorted.files, skipped: [...skipped, ...sorted.skipped], refusals };
}

/** The files read as DICOM, and those that could not be, with why; the media index is neither. */
export function sortReads(reads: Read[]): { files: DicomFile[]; skipped: RefusedFile[] } {
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
