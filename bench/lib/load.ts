import autocannon from 'autocannon';

export const DURATION_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

export interface LoadRow {
  name: string;
  rps: number;
  p99: number;
  /** Requests that failed (errors, timeouts, unexpected statuses); reported, not hidden. */
  failed: number;
}

/** Loads one endpoint for DURATION_SECONDS; failed requests (other than `okStatus` answers) are counted. */
export async function load(name: string, options: autocannon.Options, okStatus?: number): Promise<LoadRow> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION_SECONDS, ...options });
  const expected = okStatus ? (result.statusCodeStats?.[String(okStatus) as '304']?.count ?? 0) : 0;
  const failures = result.non2xx - expected + result.errors + result.timeouts;
  return { name, rps: result.requests.average, p99: result.latency.p99, failed: failures };
}

export function printLoadTable(rows: LoadRow[], ceiling: number): void {
  console.log('| endpoint | requests/s | p99 latency (ms) | share of bare route | failed |');
  console.log('|---|---:|---:|---:|---:|');
  for (const row of rows) {
    const share = ((row.rps / ceiling) * 100).toFixed(1);
    console.log(
      `| ${row.name} | ${row.rps.toFixed(0)} | ${row.p99.toFixed(1)} | ${share} % | ${row.failed} |`,
    );
  }
}
