import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './chromium.js';

const PORT = Number(process.env.E2E_PORT ?? 3107);
const baseURL = `http://127.0.0.1:${PORT}`;
// One fresh data directory per run, shared with the workers through the environment.
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'ra-e2e-'));

/** The environment every instance of the server under test gets. */
const SERVER_ENV = {
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PUBLIC_URL: baseURL,
  LOG_LEVEL: 'warn',
  // Every journey signs in from 127.0.0.1; the limits are tested in the server suite.
  AUTH_RATE_LIMIT_PER_IP: '10000',
  AUTH_RATE_LIMIT_PER_EMAIL: '10000',
};

/**
 * E2E_CLUSTER=1 (`npm run test:cluster`): the same journeys against two instances behind HAProxy
 * on a PostgreSQL database of their own (cluster/start.ts), plus the cluster's own specs.
 */
const isCluster = process.env.E2E_CLUSTER === '1';
const clusterDatabase = `postgres://postgres@127.0.0.1:5432/ra_e2e_cluster_${process.pid}`;

export default defineConfig({
  testDir: './specs',
  timeout: isCluster ? 60_000 : 30_000,
  expect: { timeout: isCluster ? 20_000 : 10_000 },
  retries: 0,
  workers: 2,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: CHROMIUM_LAUNCH,
  },
  projects: [
    { name: 'chromium', use: { browserName: 'chromium' } },
    ...(isCluster ? [{ name: 'cluster', testDir: './cluster-specs' }] : []),
  ],
  webServer: isCluster
    ? {
        command: 'node --import tsx ../cluster/start.ts',
        url: `${baseURL}/api/health`,
        reuseExistingServer: false,
        timeout: 180_000,
        stdout: 'ignore',
        stderr: 'pipe',
        gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
        env: {
          ...SERVER_ENV,
          CLUSTER_PORT: String(PORT),
          CLUSTER_DATA_DIR: process.env.E2E_DATA_DIR,
          CLUSTER_DATABASE_URL: clusterDatabase,
          CLUSTER_DROP_DATABASE: '1',
        },
      }
    : {
        // The compiled server, as `npm start` runs it (`npm run test:e2e` builds it first).
        command: 'node ../server/dist/main.js',
        url: `${baseURL}/api/health`,
        reuseExistingServer: false,
        timeout: 120_000,
        stdout: 'ignore',
        stderr: 'pipe',
        env: { ...SERVER_ENV, PORT: String(PORT), DATA_DIR: process.env.E2E_DATA_DIR },
      },
});
