import fs from 'node:fs';

/** Resident memory of a process, in MB, from /proc. */
export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'latin1');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux the bench runs on. */
const TICKS_PER_SECOND = 100;

/**
 * Processor time a process has used so far, all its threads, user and system, in milliseconds,
 * from /proc; to 10 ms, so read it across a run of many requests, not one.
 */
export function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'latin1');
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}
