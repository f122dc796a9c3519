import { inParallel, type PatientInFiles } from '@ra/shared';
import { PATIENT_HEADER_CAP, readPatientHeader } from './dicom-patient-header';
import { readHead } from './file-kind';

/** Most headers end within the first read; a file with large elements before group 0010 takes more. */
const READ_SIZES = [16 * 1024, 64 * 1024, PATIENT_HEADER_CAP] as const;

/** Files read at once: each read opens a file, and a CD holds thousands. */
const READS_AT_ONCE = 8;

/** The patient a DICOM file names, reading no more than PATIENT_HEADER_CAP bytes; null when it cannot tell. */
export async function readDicomPatient(file: Blob): Promise<PatientInFiles | null> {
  for (const size of READ_SIZES) {
    const isWholeFile = file.size <= size;
    const reading = readPatientHeader(await readHead(file, size), isWholeFile);
    if (reading === 'unreadable' || (reading === 'more' && isWholeFile)) {
      return null;
    }
    if (reading !== 'more') {
      return reading;
    }
  }
  return null;
}

/**
 * The patients the files name, one entry per file that says, in the files' order, and how many
 * could not be read here (the server reads those when they arrive). A few files at a time, each
 * read awaited, so that the page stays responsive through a folder of hundreds.
 */
export async function readDicomPatients(
  files: readonly Blob[],
): Promise<{ found: PatientInFiles[]; unread: number }> {
  const readings = new Array<PatientInFiles | null>(files.length).fill(null);
  await inParallel(
    files.map((file, index) => ({ file, index })),
    READS_AT_ONCE,
    async ({ file, index }) => {
      try {
        readings[index] = await readDicomPatient(file);
      } catch {
        // A file moved or removed since it was chosen: its upload fails and says so.
      }
    },
  );
  const found = readings.filter((reading): reading is PatientInFiles => reading !== null);
  return { found, unread: files.length - found.length };
}
