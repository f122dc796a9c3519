/**
 * The hostile bench's watch, run as a thread of its own (hostile.bench.ts `watched`): /api/health
 * timed every few milliseconds and the server's resident memory sampled, so that the bench's own
 * work (building a body of millions of elements, sending it) never holds a sample back and is
 * never counted as the server's latency. It stops at the first message and answers with what it saw.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { rssMb } from './process-usage.js';

export interface WatchData {
  base: string;
  pid: number;
  healthEveryMs: number;
}

export interface WatchReport {
  latencies: number[];
  peakRss: number;
}

const { base, pid, healthEveryMs } = workerData as WatchData;
const port = parentPort!;
const latencies: number[] = [];
let peakRss = rssMb(pid);
let isWorking = true;
const memory = setInterval(() => {
  peakRss = Math.max(peakRss, rssMb(pid));
}, 20);
port.once('message', () => {
  isWorking = false;
});
// Untimed: a thread's first fetch loads the HTTP client and opens its connection.
await (await fetch(`${base}/api/health`)).arrayBuffer();
port.postMessage('started');
while (isWorking) {
  const started = performance.now();
  await (await fetch(`${base}/api/health`)).arrayBuffer();
  latencies.push(performance.now() - started);
  await new Promise((resolve) => setTimeout(resolve, healthEveryMs));
}
clearInterval(memory);
port.postMessage({ latencies, peakRss: Math.max(peakRss, rssMb(pid)) } satisfies WatchReport);
