/**
 * npm run cluster: N instances of the compiled server behind HAProxy, on one PostgreSQL database,
 * one Redis and one storage, for trying the archive as several machines would run it
 * (docs/operations.md §12). Ctrl+C stops everything it started.
 *
 * CLUSTER_INSTANCES (2), CLUSTER_PORT (8080), CLUSTER_DATABASE_URL
 * (postgres://postgres@127.0.0.1:5432/radiology_cluster, made when missing), CLUSTER_REDIS_URL
 * (redis://127.0.0.1:6379, or a redis-server started here when none answers), CLUSTER_DATA_DIR
 * (data/cluster: the outbox and the local storage folder), CLUSTER_DROP_DATABASE=1 (the database is
 * dropped on stop: the end-to-end suite's).
 */
import path from 'node:path';
import { startCluster } from './lib/cluster.js';
import { dropDatabase } from './lib/shared-services.js';
import { clusterStorage } from './lib/storage.js';

const env = process.env;
const dataDir = path.resolve(env.CLUSTER_DATA_DIR ?? 'data/cluster');
const storage = await clusterStorage(dataDir);
const databaseUrl = env.CLUSTER_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/radiology_cluster';
const cluster = await startCluster({
  instances: Number(env.CLUSTER_INSTANCES ?? 2),
  port: Number(env.CLUSTER_PORT ?? 8080),
  databaseUrl,
  redisUrl: env.CLUSTER_REDIS_URL ?? 'redis://127.0.0.1:6379',
  storageEnvOf: storage.envOf,
  dataDir,
  env: { LOG_LEVEL: env.LOG_LEVEL ?? 'warn' },
});
console.log(`Radiology Archive cluster: ${cluster.base}`);
for (const one of cluster.instances) {
  console.log(`  ${one.name}: ${one.base} (pid ${one.pid()})`);
}
console.log(`  storage: ${storage.description}`);
console.log('Ctrl+C stops the cluster.');

let isStopping = false;
const stop = async () => {
  if (isStopping) {
    return;
  }
  isStopping = true;
  await cluster.stop();
  await storage.stop();
  if (env.CLUSTER_DROP_DATABASE === '1') {
    await dropDatabase(databaseUrl);
  }
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
