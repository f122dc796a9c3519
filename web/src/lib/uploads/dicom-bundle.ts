import { dicomBundleEnd, dicomBundlePartHead, UPLOAD_LIMITS } from '@ra/shared';
import type { BatchFile } from './upload-batch';

/**
 * Bytes of one bundle at most, well below its upload limit. The server reads each bundle as soon as
 * it has arrived, while the next ones are still being sent, so a folder goes in several bundles: a
 * CT series of 250 MB in eight, a DVD in about 150.
 */
export const BUNDLE_MAX_BYTES = Math.min(32 * 1024 ** 2, UPLOAD_LIMITS['dicom-bundle'] / 2);
/** Files of one bundle at most (the server reads up to 20,000). */
export const BUNDLE_MAX_FILES = 10_000;

/** FNV-1a over the text, twice with different offsets: 16 hex digits naming a list of files. */
function fingerprintOf(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x01000193) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/**
 * One bundle of DICOM files (shared/src/dicom-bundle.ts) as a File: the parts are the chosen
 * files themselves, so nothing is read or copied here. The same files give the same bytes, name
 * and date, so after a reload the same folder resumes the same upload.
 */
function bundleOf(files: BatchFile[]): BatchFile {
  const list = files.map(({ file, path }) => `${path}|${file.size}|${file.lastModified}`).join('\n');
  const id = fingerprintOf(list);
  const boundary = `ra-dicom-bundle-${id}`;
  const parts = files.flatMap(({ file, path }) => [dicomBundlePartHead(boundary, path), file, '\r\n']);
  const bundle = new File([...parts, dicomBundleEnd(boundary)], `${files.length} DICOM files`, {
    type: 'multipart/related',
    lastModified: Math.max(...files.map(({ file }) => file.lastModified)),
  });
  return {
    file: bundle,
    path: `${files.length} DICOM files (${id})`,
    purpose: 'dicom-bundle',
    count: files.length,
  };
}

/**
 * The uploads of a choice of files: its single DICOM files in bundles (in path order), so that a
 * folder of hundreds of files goes in a few requests, and each ZIP as it is. One DICOM file alone
 * is sent as itself, and so is a file `isFinished` says was uploaded before (it is not sent again).
 */
export function bundleDicomFiles(
  files: BatchFile[],
  isFinished: (file: BatchFile) => boolean = () => false,
): BatchFile[] {
  const single = files
    .filter((file) => file.purpose === 'dicom' && !isFinished(file))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const others = files.filter((file) => !single.includes(file));
  if (single.length <= 1) {
    return files;
  }
  const bundles: BatchFile[][] = [[]];
  let bytes = 0;
  for (const file of single) {
    const current = bundles[bundles.length - 1]!;
    if (
      current.length > 0 &&
      (bytes + file.file.size > BUNDLE_MAX_BYTES || current.length >= BUNDLE_MAX_FILES)
    ) {
      bundles.push([file]);
      bytes = file.file.size;
    } else {
      current.push(file);
      bytes += file.file.size;
    }
  }
  return [...bundles.map(bundleOf), ...others];
}
