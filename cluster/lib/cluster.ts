import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../server/test/free-port.js';
import { startHaproxy } from './haproxy.js';
import { instance, type Instance } from './instances.js';
import { ensureDatabase, redisFor } from './shared-services.js';

/**
 * N server instances on one PostgreSQL, one Redis and one storage, behind HAProxy: what
 * `npm run cluster` starts for trying, and what the cluster tests run against (docs/operations.md §12).
 */
export interface Cluster {
  /** The proxy's address: the only one a user of the cluster knows. */
  base: string;
  instances: Instance[];
  /** The folder the instances share for the outbox (emails written when no SMTP is set). */
  dataDir: string;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  instances: number;
  /** The proxy's port (0: a free one). */
  port: number;
  databaseUrl: string;
  redisUrl: string;
  /** Each instance's storage settings (STORAGE=s3 with its bucket, or a shared STORAGE_DIR). */
  storageEnvOf: (index: number) => Record<string, string>;
  /** Further settings for every instance. */
  env?: Record<string, string>;
  dataDir?: string;
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  await ensureDatabase(options.databaseUrl);
  const redis = await redisFor(options.redisUrl);
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'ra-cluster-'));
  const proxyPort = options.port || (await freePort());
  const publicUrl = `http://127.0.0.1:${proxyPort}`;
  const shared: Record<string, string> = {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: redis.url,
    DATA_DIR: dataDir,
    // The proxy on loopback is the one hop whose X-Forwarded-For is believed.
    TRUST_PROXY: '127.0.0.1',
    ROLE: 'all',
    // Counters of their own in a Redis that other clusters (or tests) may share.
    RATE_LIMIT_PREFIX: `ra:rl:${new URL(options.databaseUrl).pathname.slice(1)}:`,
    ...options.env,
  };
  const instances: Instance[] = [];
  for (let index = 0; index < options.instances; index += 1) {
    // The first seeds an empty database with the demo accounts; the others find it seeded.
    const seed = index === 0 ? (options.env?.SEED_DEMO ?? '1') : '0';
    instances.push(
      instance(`app${index + 1}`, await freePort(), {
        ...shared,
        ...options.storageEnvOf(index),
        SEED_DEMO: seed,
      }),
    );
  }
  const stopAll = async () => {
    await Promise.all(instances.map((one) => one.stop()));
    await redis.stop();
  };
  try {
    for (const one of instances) {
      await one.start();
    }
    const proxy = await startHaproxy(
      proxyPort,
      instances.map((one) => one.port),
    );
    return {
      base: proxy.base,
      instances,
      dataDir,
      stop: async () => {
        await proxy.stop();
        await stopAll();
      },
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
