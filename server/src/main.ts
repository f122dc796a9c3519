import './worker-heap-floor.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { acquireDataDirLock } from './lib/data-dir-lock.js';
import { DEMO_ACCOUNTS_WITH_PASSWORD, DEMO_PASSWORD } from './seed/demo-data.js';
import { isLoopbackHost, shouldSeedDemo } from './modules/identity/index.js';
import { isDatabaseEmpty, seedDemo } from './seed/seed-demo.js';

const KEY_CHECK_INTERVAL_MS = 60 * 60 * 1000;

async function main(): Promise<void> {
  const config = loadConfig();
  const releaseLock = config.databaseUrl ? () => undefined : acquireDataDirLock(config.dataDir);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    // As when PGlite ran on this thread and failed: the process ends, for its supervisor to restart.
    onEmbeddedFailure: (err) => {
      console.error(err.message);
      process.exit(1);
    },
  });
  await database.migrate();

  // Demo data: on the first start of an empty embedded database listening on loopback, or with SEED_DEMO=1.
  const shouldSeed = shouldSeedDemo({
    seedDemo: config.seedDemo,
    host: config.host,
    isEmbeddedDatabaseEmpty: database.kind === 'pglite' && (await isDatabaseEmpty(database.db)),
  });
  if (shouldSeed) {
    await seedDemo(database.db);
  }

  const app = await buildApp({ config, database });
  // Off loopback, buildApp has already logged why the demo accounts cannot sign in.
  if (shouldSeed && isLoopbackHost(config.host)) {
    app.log.info(
      { accounts: DEMO_ACCOUNTS_WITH_PASSWORD, password: DEMO_PASSWORD },
      `demo data ready: sign in as ${DEMO_ACCOUNTS_WITH_PASSWORD.join(', ')} with the password "${DEMO_PASSWORD}"`,
    );
  }
  const keyTimer = setInterval(() => {
    app.ctx.keys.refresh().catch((err: unknown) => app.log.error({ err }, 'signing key refresh failed'));
  }, KEY_CHECK_INTERVAL_MS);
  keyTimer.unref();

  let isClosing = false;
  const shutdown = async (signal: string) => {
    if (isClosing) {
      return;
    }
    isClosing = true;
    app.log.info({ signal }, 'shutting down');
    clearInterval(keyTimer);
    const forceExit = setTimeout(() => process.exit(1), 15_000);
    forceExit.unref();
    try {
      await app.close();
      await database.close();
    } finally {
      releaseLock();
    }
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    `Radiology Archive is running at ${config.publicUrl} (database: ${database.kind}, role: ${config.role})`,
  );
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
