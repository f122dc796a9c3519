/**
 * A worker thread of dicom-part-readers.ts: writes each part it is handed to its file and reads it
 * as DICOM, beside the main thread, which meanwhile reads the rest of the body and runs the
 * database. The part's bytes are handed over, not copied, and dropped once written and read.
 */
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { readDicomFile, readOnThisThread } from './dicom-file-read.js';
import type { PartJob, PartOutcome } from './dicom-part-readers.js';

parentPort!.on('message', (job: PartJob) => {
  const handle = async (): Promise<PartOutcome> => {
    try {
      const bytes = Buffer.from(job.bytes);
      fs.writeFileSync(job.file, bytes);
      return { id: job.id, read: await readDicomFile(job.name, job.file, readOnThisThread, bytes) };
    } catch (err) {
      const error = err as NodeJS.ErrnoException;
      return { id: job.id, error: { message: error.message ?? String(err), code: error.code } };
    }
  };
  void handle().then((outcome) => parentPort!.postMessage(outcome));
});
