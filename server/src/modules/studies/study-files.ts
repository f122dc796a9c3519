import path from 'node:path';
import { inParallel, type SkippedFile } from '@ra/shared';
import { extractZip, ZIP_LIMITS, ZipRefused } from '../dicom/index.js';
import type { DicomPurpose, UploadFiles } from '../uploads/index.js';
import { BundleRefused, extractBundle } from './study-bundle.js';
import { earlyBundleReads } from './early-bundle-reads.js';
import {
  partitionReads,
  readDicomFile,
  type DicomFile,
  type FileRead,
  type InstanceReader,
} from './dicom-file-read.js';

export interface UploadToRead {
  id: string;
  purpose: DicomPurpose;
  filename: string;
}

/** Files read at the same time when filing uploads. */
export const FILES_READ_AT_ONCE = 8;

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
 * A file in a ZIP may inflate to `maxInstanceBytes` at most. An upload kept in a bucket is read
 * from a copy in `workDir`; one on this disk is read in place.
 */
export async function readDicomUploads(
  uploads: UploadToRead[],
  uploadFiles: Pick<UploadFiles, 'localCopyOf'>,
  workDir: string,
  parse: InstanceReader,
  maxInstanceBytes = ZIP_LIMITS.maxEntryBytes,
  /** What ZIPs may inflate to in all: the uploader's remaining storage, counted as they inflate. */
  maxZipBytes = ZIP_LIMITS.maxTotalBytes,
): Promise<DicomUploads> {
  // Every file to read, in the order of the uploads and of each ZIP's entries; bundles are read as
  // they are taken apart.
  const toRead: { name: string; path: string }[] = [];
  const bundled: FileRead[] = [];
  const skipped: SkippedFile[] = [];
  const refusals: string[] = [];
  await readEach();
  // A few at a time: reading waits on the disk far more than parsing uses the processor.
  const reads = new Array<FileRead>(toRead.length);
  await inParallel([...toRead.keys()], FILES_READ_AT_ONCE, async (index) => {
    reads[index] = await readDicomFile(toRead[index]!.name, toRead[index]!.path, parse);
  });
  const sorted = partitionReads([...bundled, ...reads]);
  return { files: sorted.files, skipped: [...skipped, ...sorted.skipped], refusals };

  /**
   * The upload's bytes as a local file. A copy from a bucket is made in `workDir`: filing moves a
   * single file into storage from there, and removing the folder removes whatever is left.
   */
  async function localFileOf(id: string): Promise<string> {
    return (await uploadFiles.localCopyOf(id, workDir)).path;
  }

  /** Lists every single file, unpacks every ZIP and takes every bundle apart. */
  async function readEach() {
    for (const upload of uploads) {
      if (upload.purpose === 'dicom') {
        toRead.push({ name: upload.filename, path: await localFileOf(upload.id) });
        continue;
      }
      if (upload.purpose === 'dicom-bundle') {
        // Read as they come out of the bundle, or when its upload finished; a bundle cut short files
        // none of its files.
        const dir = path.join(workDir, upload.id);
        try {
          bundled.push(
            ...((await earlyBundleReads.takeInto(upload.id, dir)) ??
              (await extractBundle(await localFileOf(upload.id), dir))),
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
        const extracted = await extractZip(
          await localFileOf(upload.id),
          path.join(workDir, upload.id),
          maxZipBytes,
          {
            ...ZIP_LIMITS,
            maxEntryBytes: maxInstanceBytes,
          },
        );
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
  }
}
