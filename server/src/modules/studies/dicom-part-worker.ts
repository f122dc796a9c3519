/**
 * A worker thread of dicom-part-readers.ts: writes each part it is handed to its file and reads it
 * as DICOM, beside the main thread, which meanwhile reads the rest of the body and runs the
 * database. The part's bytes are handed over, not copied, and dropped once written and read.
 */
import { writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { readDicomFile, readOnThisThread } from './dicom-file-read.js';
import type { PartJob, PartOutcome } from './dicom-part-readers.js';

parentPort!.on('message', (job: PartJob) => {
  const handle = async (): Promise<PartOutcome> => {
    try {
      const bytes = Buffer.from(job.bytes);
      // Written here, synchronously, then read: this thread has nothing else to do meanwhile, and a
      // write through libuv's thread pool costs four hand-overs between threads (open, two writes,
      // close) that, on a busy machine, each wait for a core. The file is complete (or the write
      // failed) before the part is reported, since the caller then moves or removes it.
      writeFileSync(job.file, bytes);
      const read = await readDicomFile(job.name, job.file, readOnThisThread, bytes);
      return { id: job.id, read };
    } catch (err) {
      const error = err as NodeJS.ErrnoException;
      return { id: job.id, error: { message: error.message ?? String(err), code: error.code } };
    }
  };
  void handle().then((outcome) => parentPort!.postMessage(outcome));
});
