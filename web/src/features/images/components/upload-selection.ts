import { MAX_STUDY_UPLOADS, STUDY_MESSAGES } from '@ra/shared';
import { counted } from '../../../lib/counted';
import { megabytes } from '../../../lib/uploads/batch-progress';
import { classifyFiles, type ChosenFile, type FileKind } from '../../../lib/uploads/file-kind';
import type { BatchFile } from '../../../lib/uploads/upload-batch';

/** What the Upload page does with the chosen files: today's one-image flow, or a DICOM batch. */
export type UploadSelection =
  | { kind: 'none' }
  | { kind: 'image'; file: File; skipped: ChosenFile[] }
  | { kind: 'dicom'; files: BatchFile[]; skipped: ChosenFile[] }
  | { kind: 'refused'; message: string; skipped: ChosenFile[] };

export const SELECTION_MESSAGES = {
  oneImage: 'Choose one image at a time.',
  nothing: 'No image or DICOM file was found in what you chose.',
} as const;

/** Sorts the chosen files by kind; `kinds[i]` is the kind of `chosen[i]`. */
export function selectionOf(chosen: ChosenFile[], kinds: FileKind[]): UploadSelection {
  const images = chosen.filter((_, index) => kinds[index] === 'image');
  const others = chosen.filter((_, index) => kinds[index] === 'other');
  const files: BatchFile[] = [];
  chosen.forEach(({ file, path }, index) => {
    if (kinds[index] === 'dicom' || kinds[index] === 'zip') {
      files.push({ file, path, purpose: kinds[index] === 'zip' ? 'dicom-zip' : 'dicom' });
    }
  });
  if (chosen.length === 0) {
    return { kind: 'none' };
  }
  // Beside DICOM files, pictures are what CDs carry for their viewer (icons, logos): skipped too.
  const skipped = files.length > 0 ? [...others, ...images] : others;
  if (files.length > 0) {
    return files.length > MAX_STUDY_UPLOADS
      ? { kind: 'refused', message: STUDY_MESSAGES.tooManyUploads, skipped }
      : { kind: 'dicom', files, skipped };
  }
  if (images.length > 1) {
    return { kind: 'refused', message: SELECTION_MESSAGES.oneImage, skipped };
  }
  if (images[0]) {
    return { kind: 'image', file: images[0].file, skipped };
  }
  return { kind: 'refused', message: SELECTION_MESSAGES.nothing, skipped };
}

/** Reads the first bytes of each chosen file and sorts them. */
export async function sortChosenFiles(chosen: ChosenFile[]): Promise<UploadSelection> {
  return selectionOf(chosen, await classifyFiles(chosen));
}

/** E.g. "312 DICOM files, 48.2 MB" or "300 DICOM files and 1 ZIP archive, 48.2 MB". */
export function describeDicom(files: BatchFile[]): string {
  const zips = files.filter((file) => file.purpose === 'dicom-zip').length;
  const dicom = files.length - zips;
  const parts = [
    dicom > 0 && counted(dicom, 'DICOM file', 'DICOM files'),
    zips > 0 && counted(zips, 'ZIP archive', 'ZIP archives'),
  ].filter(Boolean);
  const bytes = files.reduce((sum, { file }) => sum + file.size, 0);
  return `${parts.join(' and ')}, ${megabytes(bytes)}`;
}

/** E.g. "3 files that are not DICOM were skipped". */
export function describeSkipped(count: number): string {
  return `${counted(count, 'file that is not DICOM was', 'files that are not DICOM were')} skipped`;
}
