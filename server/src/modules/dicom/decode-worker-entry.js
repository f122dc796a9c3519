// A decode thread's entry (decode-pool.ts): loads decode-tasks, compiled or through tsx
// (lib/worker-module.js explains which). Piscina calls the export named by each task.
import { importWorkerModule } from '../../lib/worker-module.js';

const tasks = await importWorkerModule(import.meta.url, 'decode-tasks');

export const { renderEncoded, renderPreview, readFrames, decodeFrames, readBulkData, readInstance } = tasks;
