import fs from 'node:fs';

/** Resident memory of a process, in MB, from /proc. */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'latin1');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
