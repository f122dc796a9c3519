import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { openPostgres, type Database } from '../db/client.js';
import { startJobQueue, type JobQueue } from './job-queue.js';

const MINUTE_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The periodic sweeps (picture-sweep, thumbnail-sweep, the cleanups) are pg-boss schedules, stored
 * by every instance that works jobs. This runs one every minute, the shortest period a schedule
 * has, on two instances' queues and counts its runs.
 */
describe.runIf(process.env.TEST_DATABASE_URL)(
  'a sweep scheduled by two instances on one PostgreSQL (needs TEST_DATABASE_URL: PGlite is one process)',
  () => {
    let t: TestApp;
    const databases: Database[] = [];
    const queues: JobQueue[] = [];
    const runs: { instance: string; at: number }[] = [];
    const name = `test-sweep-${crypto.randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      for (const queue of queues) {
        await queue.stop();
      }
      for (const database of databases) {
        await database.close();
      }
      await t.close();
    });

    it(
      'runs once per period, on one instance or the other, never on both',
      { timeout: 150_000 },
      async () => {
        // Start early in a minute, so that the first period's run falls inside it.
        while (new Date().getSeconds() < 2 || new Date().getSeconds() > 45) {
          await sleep(500);
        }
        const firstPeriod = Math.floor(Date.now() / MINUTE_MS);
        for (const instance of ['A', 'B']) {
          const database = openPostgres(t.databaseUrl!, 2);
          databases.push(database);
          const job = {
            name,
            schedule: '* * * * *',
            retryLimit: 1,
            handle: () => Promise.resolve(void runs.push({ instance, at: Date.now() })),
          };
          queues.push(
            await startJobQueue(database, [job], t.app.log, { pollingIntervalSeconds: 0.5, cronSeconds: 1 }),
          );
        }
        // Both instances look for due schedules every second; wait into the next period and past
        // the time its run takes to be queued and worked.
        await sleep((firstPeriod + 1) * MINUTE_MS - Date.now() + 10_000);

        const periods = runs.map((run) => Math.floor(run.at / MINUTE_MS) - firstPeriod);
        expect(periods).toEqual([0, 1]);
      },
    );
  },
);
