/**
 * A worker thread of dicom-part-readers.ts: writes each part it is handed to its file and reads it
 * as DICOM, beside the main thread, which meanwhile reads the rest of the body and runs the
 * database. The part's bytes are handed over, not copied, and dropped once written and read.
 */
import fs from 'node:fs/promises';
import { parentPort } from 'node:worker_threads';
import { readDicomFile, readOnThisThread } from './dicom-file-read.js';
import type { PartJob, PartOutcome } from './dicom-part-readers.js';

parentPort!.on('message', (job: PartJob) => {
  const handle = async (): Promise<PartOutcome> => {
    try {
      const bytes = Buffer.from(job.bytes);
      // The file is written by libuv's thread pool while this thread reads the bytes, so a part is
      // ready after the longer of the two rather than after both; it is written in full (or failed)
      // before it is reported, since the caller then moves or removes it.
      const [written, read] = await Promise.allSettled([
        fs.writeFile(job.file, bytes),
        readDicomFile(job.name, job.file, readOnThisThread, bytes),
      ]);
      if (written.status === 'rejected') {
        throw written.reason;
      }
      if (read.status === 'rejected') {
        throw read.reason;
      }
      return { id: job.id, read: read.value };
    } catch (err) {
      const error = err as NodeJS.ErrnoException;
      return { id: job.id, error: { message: error.message ?? String(err), code: error.code } };
    }
  };
  void handle().then((outcome) => parentPort!.postMessage(outcome));
});
