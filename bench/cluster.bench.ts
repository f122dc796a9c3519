/**
 * The cluster of `npm run cluster` (docs/operations.md §16) with one instance and with two behind
 * HAProxy, each time on a fresh PostgreSQL database: the image list and notification polling rows
 * of the embedded bench, through the proxy. On this 2-core machine the instances, the proxy,
 * PostgreSQL and the load generator share the cores, so the ratio shows what a second process
 * buys here, not what a second machine would.
 */
import path from 'node:path';
import { startCluster } from '../cluster/lib/cluster.js';
import { dropDatabase } from '../cluster/lib/shared-services.js';
import { clusterStorage } from '../cluster/lib/storage.js';
import { Api } from './lib/api.js';
import type { LoadRow } from './lib/load.js';
import { imageListRows } from './images.bench.js';
import { pollingRows } from './second-opinion.bench.js';

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface ClusterFigures {
  /** Rows by number of instances. */
  rows: Map<number, LoadRow[]>;
}

async function rowsWith(instances: number, dataDir: string): Promise<LoadRow[]> {
  const url = new URL(POSTGRES);
  url.pathname = `/ra_bench_cluster_${instances}_${process.pid}`;
  const databaseUrl = url.toString();
  const storage = await clusterStorage(dataDir);
  const cluster = await startCluster({
    instances,
    port: 0,
    databaseUrl,
    redisUrl: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    storageEnvOf: storage.envOf,
    dataDir,
    env: {
      LOG_LEVEL: 'warn',
      // The bench signs in thousands of times from one IP; the limits would turn that into 429s.
      AUTH_RATE_LIMIT_PER_IP: '100000000',
      AUTH_RATE_LIMIT_PER_EMAIL: '100000000',
    },
  });
  try {
    const physician = new Api(cluster.base);
    await physician.signIn('physician@example.com', 'demo-password');
    return [...(await imageListRows(physician)), ...(await pollingRows(cluster.base, cluster.dataDir))];
  } finally {
    await cluster.stop();
    await storage.stop();
    await dropDatabase(databaseUrl);
  }
}

export async function clusterFigures(dataDir: string): Promise<ClusterFigures> {
  const rows = new Map<number, LoadRow[]>();
  for (const instances of [1, 2]) {
    rows.set(instances, await rowsWith(instances, path.join(dataDir, `cluster-${instances}`)));
  }
  return { rows };
}

export function printClusterTable({ rows }: ClusterFigures): void {
  const one = rows.get(1)!;
  const two = rows.get(2)!;
  console.log('\nThe cluster through HAProxy on PostgreSQL: 1 instance beside 2 (requests/s, p99 ms)\n');
  console.log('| endpoint | 1 instance | 2 instances | 2 / 1 | failed |');
  console.log('|---|---:|---:|---:|---:|');
  one.forEach((row, index) => {
    const other = two[index]!;
    console.log(
      `| ${row.name} | ${row.rps.toFixed(0)} (p99 ${row.p99.toFixed(0)}) | ${other.rps.toFixed(0)} (p99 ${other.p99.toFixed(0)}) | ${(other.rps / row.rps).toFixed(2)} | ${row.failed + other.failed} |`,
    );
  });
}
