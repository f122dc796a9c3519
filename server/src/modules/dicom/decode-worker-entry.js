// A decode thread's entry (decode-pool.ts): Node 20 does not hand a worker the parent's TypeScript
// loader, so the thread registers tsx itself before loading its TypeScript module. Piscina calls the
// export named by each task.
import { register } from 'tsx/esm/api';

register();
const tasks = await import('./decode-tasks.ts');

export const { renderEncoded, renderPreview, readFrames, decodeFrames, readBulkData, readInstance } = tasks;
