import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';

/**
 * Background jobs queued in the database with pg-boss, on PostgreSQL or on the embedded PGlite
 * (through pg-boss's `db` adapter). Every instance works the queues; handlers are idempotent.
 */
export interface JobSender {
  send(name: string, data: object, options?: PgBoss.SendOptions): Promise<void>;
}

export interface JobQueue extends JobSender {
  stop(): Promise<void>;
  boss: PgBoss;
}

export interface JobDefinition<T extends object> {
  name: string;
  /** Cron expression for jobs that run on a schedule. */
  schedule?: string;
  retryLimit: number;
  handle(data: T): Promise<void>;
}

export async function startJobQueue(
  database: Database,
  jobs: JobDefinition<object>[],
  log: FastifyBaseLogger,
  options: { pollingIntervalSeconds?: number } = {},
): Promise<JobQueue> {
  const boss = new PgBoss({
    db: { executeSql: (text, values) => database.executeSql(text, (values as unknown[] | undefined) ?? []) },
    schema: 'pgboss',
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  await boss.start();
  const workers = new Map<string, string>();
  for (const job of jobs) {
    await boss.createQueue(job.name, {
      name: job.name,
      retryLimit: job.retryLimit,
      retryDelay: 2,
      retryBackoff: true,
    });
    let workerId = '';
    workerId = await boss.work<object>(
      job.name,
      { pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
      async ([item]) => {
        if (item) {
          await job.handle(item.data);
          // pg-boss waits a polling interval after every fetch; when there was work, ask at once
          // for more, so a backlog drains at the speed of the work, not one job per interval.
          boss.notifyWorker(workerId);
        }
      },
    );
    workers.set(job.name, workerId);
    if (job.schedule) {
      await boss.schedule(job.name, job.schedule);
    }
  }
  return {
    boss,
    async send(name, data, sendOptions = {}) {
      await boss.send(name, data, sendOptions);
      // This instance works the queue too: start now rather than at the next poll.
      const workerId = workers.get(name);
      if (workerId) {
        boss.notifyWorker(workerId);
      }
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
