// The health watch's thread entry (hostile.bench.ts `watched`): Node 20 does not hand a worker its
// parent's TypeScript loader, so the thread registers tsx itself and imports health-watch.ts.
import { register } from 'tsx/esm/api';

register();
await import('./health-watch.ts');
