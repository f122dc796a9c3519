// The embedded database's thread entry (pglite-thread.ts): loads pglite-thread-worker, compiled or
// through tsx (lib/worker-module.js explains which).
import { importWorkerModule } from '../lib/worker-module.js';

await importWorkerModule(import.meta.url, 'pglite-thread-worker');
