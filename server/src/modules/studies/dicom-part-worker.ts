/**
 * A worker thread of dicom-part-readers.ts: reads each part it is handed as DICOM and writes it to
 * its file, beside the main thread, which meanwhile reads the rest of the body and runs the
 * database. The part's bytes are handed over, not copied, and dropped once written and read.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { readDicomFile, readOnThisThread } from './dicom-file-read.js';
import type { PartJob, PartOutcome } from './dicom-part-readers.js';

parentPort!.on('message', (job: PartJob) => {
  const handle = async (): Promise<PartOutcome> => {
    try {
      if (!job.bytes) {
        // Written already (a large part): read back whole, here, and parsed as a part handed over.
        const written = readFileSync(job.file);
        return { id: job.id, read: await readDicomFile(job.name, job.file, readOnThisThread, written) };
      }
      const bytes = Buffer.from(job.bytes);
      // Read first, and said at once: the caller may look up what the files need meanwhile. Then
      // written here, synchronously: this thread has nothing else to do, and a write through
      // libuv's thread pool costs four hand-overs between threads (open, two writes, close) that, on
      // a busy machine, each wait for a core. The file is complete (or the write failed) before
      // `read` is said, since the caller then moves or removes it.
      const read = await readDicomFile(job.name, job.file, readOnThisThread, bytes);
      parentPort!.postMessage({ id: job.id, parsed: read } satisfies PartOutcome);
      writeFileSync(job.file, bytes);
      return { id: job.id, written: true };
    } catch (err) {
      const error = err as NodeJS.ErrnoException;
      return { id: job.id, error: { message: error.message ?? String(err), code: error.code } };
    }
  };
  void handle().then((outcome) => parentPort!.postMessage(outcome));
});
