import fs from 'node:fs/promises';
import path from 'node:path';
import { STUDY_MESSAGES, type SkippedFile } from '@ra/shared';
import { readDicomInstance, type DicomInstance } from '../dicom/dicom-instance.js';
import { DicomReadError } from '../dicom/dicom-read-error.js';
import { extractZip, ZipRefused } from '../dicom/zip-extract.js';
import { hasDicomMarker } from '../uploads/dicom-upload.js';

/** One readable DICOM file among the uploads, not yet in storage. */
export interface DicomFile {
  uploadId: string;
  /** As uploaded; for a file from a ZIP, "<zip name>/<path inside>". */
  name: string;
  /** Where the bytes are now (the tus folder, or the ZIP's extraction folder). */
  path: string;
  size: number;
  instance: DicomInstance;
}

export interface UploadToRead {
  id: string;
  purpose: 'dicom' | 'dicom-zip';
  filename: string;
}

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
 * Reads every DICOM file of the uploads: single files and the contents of ZIPs. What cannot be
 * filed is returned with its reason; the media index (DICOMDIR) is not needed and left out.
 * `workDir` receives what ZIPs hold; the caller removes it.
 */
export async function readDicomUploads(
  uploads: UploadToRead[],
  tusDir: string,
  workDir: string,
): Promise<{ files: DicomFile[]; skipped: SkippedFile[] }> {
  const files: DicomFile[] = [];
  const skipped: SkippedFile[] = [];

  async function readOne(uploadId: string, name: string, file: string): Promise<void> {
    const { size } = await fs.stat(file);
    if (!(await hasDicomMarker(file))) {
      skipped.push({ name, reason: STUDY_MESSAGES.notDicom });
      return;
    }
    try {
      const instance = readDicomInstance(await readForParsing(file, size));
      if (instance.isDicomdir) {
        return;
      }
      if (!hasValidUids(instance)) {
        skipped.push({ name, reason: STUDY_MESSAGES.unreadable });
        return;
      }
      files.push({ uploadId, name, path: file, size, instance });
    } catch (err) {
      if (!(err instanceof DicomReadError)) {
        throw err;
      }
      skipped.push({ name, reason: err.message });
    }
  }

  for (const upload of uploads) {
    const uploaded = path.join(tusDir, upload.id);
    if (upload.purpose === 'dicom') {
      await readOne(upload.id, upload.filename, uploaded);
      continue;
    }
    try {
      const extracted = await extractZip(uploaded, path.join(workDir, upload.id));
      for (const entry of extracted.skipped) {
        skipped.push({ name: `${upload.filename}/${entry.name}`, reason: entry.reason });
      }
      for (const entry of extracted.files) {
        await readOne(upload.id, `${upload.filename}/${entry.name}`, entry.path);
      }
    } catch (err) {
      if (!(err instanceof ZipRefused)) {
        throw err;
      }
      skipped.push({ name: upload.filename, reason: err.message });
    }
  }
  return { files, skipped };
}
