// The worker thread's entry: Node 20 does not hand a worker the parent's TypeScript loader, so
// the worker registers tsx itself before loading its TypeScript module.
import { register } from 'tsx/esm/api';

register();
await import('./dicom-part-worker.ts');
