// The part reader thread's entry (dicom-part-readers.ts): loads dicom-part-worker, compiled or
// through tsx (lib/worker-module.js explains which).
import { importWorkerModule } from '../../lib/worker-module.js';

await importWorkerModule(import.meta.url, 'dicom-part-worker');
