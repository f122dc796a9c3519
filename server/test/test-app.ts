import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openPglite, openPostgres, type Database } from '../src/db/client.js';
import { proxiedEnv, putBehindProxy } from './proxied-pair.js';

/**
 * TEST_THROUGH_PROXY=1 (`npm run test:proxy -w server`): every app a test creates is two instances
 * on one PostgreSQL database, one data folder and one Redis, behind HAProxy, and its `inject`
 * goes through the proxy over HTTP (test/proxied-pair.ts). Tests that cannot hold there skip with
 * `it.skipIf(throughProxy)` and a comment saying why.
 */
export const throughProxy = process.env.TEST_THROUGH_PROXY === '1';

export interface TestApp {
  app: FastifyInstance;
  /**
   * Every instance answering this app's requests: `app` alone, or in proxy mode `app` and its twin
   * (a test that changes an instance's state in memory changes it on each).
   */
  instances: FastifyInstance[];
  config: Config;
  database: Database;
  /** The PostgreSQL database's URL; undefined on in-memory PGlite. */
  databaseUrl: string | undefined;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A real app on a real, empty, migrated database: in-memory PGlite, or a fresh PostgreSQL
 * database created next to TEST_DATABASE_URL when that is set.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  options: {
    jobPollingSeconds?: number;
    isWorkingJobs?: boolean;
    /** Seconds between looks for due schedules (pg-boss's cron monitor); its 30 unless told. */
    cronSeconds?: number;
    /**
     * A second instance on that app's database (it stays that app's to drop or close): a new pool
     * on PostgreSQL; on in-memory PGlite, the same database object (two apps in one process).
     */
    besides?: TestApp;
    /**
     * Whether this app is two instances behind HAProxy (default: TEST_THROUGH_PROXY=1). false for
     * a test that addresses instances one by one itself (`besides`) or plays the proxy itself.
     */
    proxied?: boolean;
    /** Called for every route as it is registered (of the first instance only, in proxy mode). */
    onRoute?: (route: RouteOptions) => void;
  } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-test-'));
  const besides = options.besides;
  // An app made `besides` another is a test's own second instance, reached directly.
  const isProxied = (options.proxied ?? throughProxy) && !besides;
  if (isProxied && !process.env.TEST_DATABASE_URL) {
    throw new Error(
      'TEST_THROUGH_PROXY=1 needs TEST_DATABASE_URL: two instances share one PostgreSQL database',
    );
  }
  const besidesUrl = besides?.databaseUrl;
  const { database, databaseUrl, dropDatabase, closeDatabase } = besidesUrl
    ? {
        database: openPostgres(besidesUrl, 4),
        databaseUrl: besidesUrl,
        dropDatabase: async () => undefined,
        closeDatabase: true,
      }
    : besides
      ? {
          database: besides.database,
          databaseUrl: undefined,
          dropDatabase: async () => undefined,
          closeDatabase: false,
        }
      : { ...(await openTestDatabase()), closeDatabase: true };
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    AUTH_RATE_LIMIT_PER_IP: '10000',
    AUTH_RATE_LIMIT_PER_EMAIL: '10000',
    // The settings name the database the app runs on (ROLE=web and worker need PostgreSQL).
    ...(databaseUrl && { DATABASE_URL: databaseUrl }),
    ...(isProxied && databaseUrl && proxiedEnv(databaseUrl)),
    ...env,
  });
  await database.migrate();
  const build = (on: Database, settings: Config, onRoute?: (route: RouteOptions) => void) =>
    buildApp({
      config: settings,
      database: on,
      logger: false,
      jobPollingSeconds: options.jobPollingSeconds,
      isWorkingJobs: options.isWorkingJobs,
      cronSeconds: options.cronSeconds,
      onRoute,
    });
  const app = await build(database, config, options.onRoute);
  await app.ready();
  // Proxy mode: a twin with the same settings (so the same data folder and storage) and a pool of
  // its own on the same database, as a second machine of the cluster would have. It runs no DICOM
  // node: devices are given one instance's address (docs/operations.md §16), and here both would
  // want the same port.
  const twinConfig = { ...config, dicom: { ...config.dicom, node: undefined } };
  const twin =
    isProxied && databaseUrl ? await startTwin(databaseUrl, (on) => build(on, twinConfig)) : undefined;
  const pair = twin ? await putBehindProxy(app, twin.app, config) : undefined;
  return {
    app,
    instances: twin ? [app, twin.app] : [app],
    config,
    database,
    databaseUrl,
    dataDir,
    close: async () => {
      await pair?.stop();
      await twin?.close();
      await app.close();
      if (closeDatabase) {
        await database.close();
      }
      await dropDatabase();
      // The tus store makes its folder with a callback nobody can await (and throws from it when
      // the folder went): a call queued after it ends after it, so the folder is not removed first.
      await fs.promises.mkdir(path.join(config.storageDir, 'uploads'), { recursive: true });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startTwin(
  databaseUrl: string,
  build: (database: Database) => Promise<FastifyInstance>,
): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const database = openPostgres(databaseUrl, 4);
  // Each instance migrates at its start, as in the cluster; the advisory lock makes this one wait.
  await database.migrate();
  const app = await build(database);
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}

async function openTestDatabase(): Promise<{
  database: Database;
  databaseUrl: string | undefined;
  dropDatabase: () => Promise<void>;
}> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    // A copy of the migrated template (test/global-setup.ts), when the run made one.
    const template = inject('testPgliteTemplate');
    return {
      database: await openPglite(undefined, template ? new Blob([fs.readFileSync(template)]) : undefined),
      databaseUrl: undefined,
      dropDatabase: async () => undefined,
    };
  }
  const name = `ra_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // A copy of the migrated template (test/global-setup.ts), when the run made one.
  const template = inject('testDatabaseTemplate');
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    database: openPostgres(url.toString(), 4),
    databaseUrl: url.toString(),
    dropDatabase: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}
