import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import { announceChange, type ChangeFeed } from '../db/change-feed.js';
import type { Database, Queryable } from '../db/client.js';

/**
 * Background jobs queued in the database with pg-boss, on PostgreSQL or on the embedded PGlite
 * (through pg-boss's `db` adapter). Every instance works the queues; handlers are idempotent.
 *
 * Workers are woken when work arrives rather than found by polling alone: a job sent outside a
 * transaction wakes this instance's worker at once, one sent inside a transaction announces its
 * queue on the change feed ("jobs" topic), heard when the transaction commits, and one that waits
 * to start wakes the worker when it may start. Polling remains for what nothing announces (retries,
 * jobs from other instances, schedules), and is slow on the embedded database, where every poll
 * runs on the one thread that answers requests.
 */
export interface JobSender {
  /** Queues a job; throws when the queue cannot store it (inside `tx`, that rolls the change back). */
  send(name: string, data: object, options?: JobSendOptions): Promise<void>;
  /**
   * Queues follow-up work for data that is already committed. Never throws: the data is stored and
   * the request succeeded, so a queue failure is logged and left to the sweep jobs to repair.
   */
  sendAfterCommit(name: string, data: object, options?: JobSendOptions): Promise<void>;
}

export interface JobSendOptions extends Omit<PgBoss.SendOptions, 'db'> {
  /** The open transaction of the change that causes the job: the job exists only if it commits. */
  tx?: Queryable;
}

export interface JobQueue {
  send(name: string, data: object, options?: JobSendOptions): Promise<void>;
  /** Jobs of this queue not finished yet (waiting, waiting for a retry, or running). */
  countUnfinished(name: string): Promise<number>;
  /** Asks this instance's worker of the queue to look for work now. */
  wake(name: string): void;
  stop(): Promise<void>;
  boss: PgBoss;
}

/**
 * pg-boss's `db` option for sending inside a Drizzle transaction: its statement runs on the
 * transaction's own connection (on PGlite, inside the single connection's open transaction, which
 * anything else would have to wait for). Drizzle's public session API takes the statement and its
 * positional values as they are.
 */
function transactionExecutor(tx: Queryable): PgBoss.Db {
  return {
    executeSql: async (text, values) => {
      const result = await tx._.session
        .prepareQuery({ sql: text, params: values }, undefined, undefined, false)
        .execute();
      return { rows: (result as { rows: unknown[] }).rows };
    },
  };
}

export interface JobDefinition<T extends object> {
  name: string;
  /** Cron expression for jobs that run on a schedule. */
  schedule?: string;
  retryLimit: number;
  /**
   * pg-boss's queue policy; `short` keeps at most one job per singleton key waiting to start (a
   * job sent while one waits is dropped: the waiting one will see the newer data).
   */
  policy?: 'standard' | 'short';
  handle(data: T): Promise<void>;
}

/** Seconds between a worker's looks at its queue when nothing woke it, by database. */
export const POLLING_SECONDS = { pglite: 10, postgres: 1 } as const;

/** How long before its start a waiting job is no longer counted on to see what is committed now. */
const WAITING_JOB_MARGIN_MS = 1_000;

/**
 * The singleton jobs this instance queued that have not started yet: one that waits `startAfter`
 * seconds sees everything committed before it starts, so sending the same job meanwhile, to start
 * no sooner, adds nothing and is skipped instead of costing the database a statement (a DICOMweb
 * client's batches each ask for the same drawing).
 */
class WaitingJobs {
  private readonly startsAt = new Map<string, number>();

  private static keyOf(name: string, options: JobSendOptions): string | undefined {
    const isWaiting = typeof options.startAfter === 'number' && options.startAfter > 0;
    return isWaiting && options.singletonKey && !options.tx ? `${name}\0${options.singletonKey}` : undefined;
  }

  /**
   * Whether this job, sent now, would find one of its own waiting that starts after what is
   * committed now and no later than this one would.
   */
  isWaiting(name: string, options: JobSendOptions): boolean {
    const key = WaitingJobs.keyOf(name, options);
    const startsAt = key === undefined ? undefined : this.startsAt.get(key);
    if (startsAt === undefined) {
      return false;
    }
    const now = performance.now();
    return now + WAITING_JOB_MARGIN_MS < startsAt && startsAt <= now + (options.startAfter as number) * 1000;
  }

  /** A job was stored at `sentAt` (performance.now()): it starts `startAfter` seconds later at the earliest. */
  stored(name: string, options: JobSendOptions, sentAt: number): void {
    const key = WaitingJobs.keyOf(name, options);
    if (key === undefined) {
      return;
    }
    if (this.startsAt.size >= 10_000) {
      const now = performance.now();
      for (const [waiting, at] of this.startsAt) {
        if (at <= now) {
          this.startsAt.delete(waiting);
        }
      }
    }
    this.startsAt.set(key, sentAt + (options.startAfter as number) * 1000);
  }
}

export async function startJobQueue(
  database: Database,
  jobs: JobDefinition<object>[],
  log: FastifyBaseLogger,
  options: {
    /** Seconds between looks at a queue that nothing woke; POLLING_SECONDS unless told. */
    pollingIntervalSeconds?: number;
    /**
     * False: store jobs but work none here, and neither run the schedules nor pg-boss's upkeep
     * (a web instance, ROLE=web; or a test's instance that stops before its workers run).
     */
    isWorking?: boolean;
    /** Seconds between looks for due schedules (pg-boss's cron monitor and its send-it worker). */
    cronSeconds?: number;
    /** Where jobs sent inside transactions are announced once committed. */
    changes?: ChangeFeed;
  } = {},
): Promise<JobQueue> {
  let isStopped = false;
  const pollingIntervalSeconds = options.pollingIntervalSeconds ?? POLLING_SECONDS[database.kind];
  const isWorking = options.isWorking !== false;
  const boss = new PgBoss({
    // Schedules are run by pg-boss on every working instance, once per period across them all: each
    // instance looks for due schedules, but only one look per interval succeeds (a timestamp in the
    // pgboss schema), and what it queues is a singleton per schedule and minute. The job is then
    // taken by one worker; one whose instance dies expires and is retried (docs/operations.md §16).
    schedule: isWorking,
    supervise: isWorking,
    ...(options.cronSeconds !== undefined && {
      cronMonitorIntervalSeconds: options.cronSeconds,
      cronWorkerIntervalSeconds: options.cronSeconds,
    }),
    db: {
      executeSql: async (text, values) => {
        if (isStopped) {
          // A job that outlived the graceful stop finishes after the database may be closed; its
          // completion is dropped and the job, still active, expires and runs again (jobs are idempotent).
          // The answer reads as "no row changed" to pg-boss's complete/fail, the only late callers.
          log.warn('job queue stopped: a late job update was dropped');
          return { rows: [{ count: '0' }] };
        }
        return database.executeSql(text, (values as unknown[] | undefined) ?? []);
      },
    },
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
      ...(job.policy && { policy: job.policy }),
    });
    if (!isWorking) {
      continue;
    }
    let workerId = '';
    workerId = await boss.work<object>(job.name, { pollingIntervalSeconds }, async ([item]) => {
      if (item) {
        await job.handle(item.data);
        // pg-boss waits a polling interval after every fetch; when there was work, ask at once
        // for more, so a backlog drains at the speed of the work, not one job per interval.
        boss.notifyWorker(workerId);
      }
    });
    workers.set(job.name, workerId);
    if (job.schedule) {
      await boss.schedule(job.name, job.schedule);
    }
  }
  const wake = (name: string) => {
    const workerId = workers.get(name);
    if (workerId && !isStopped) {
      boss.notifyWorker(workerId);
    }
  };
  // A job sent in a transaction is there once it commits: the announcement arrives then.
  const announcesJobs = options.changes !== undefined;
  options.changes?.on('jobs', (names) => {
    (names ?? [...workers.keys()]).forEach(wake);
  });
  const wakeTimers = new Set<NodeJS.Timeout>();
  const wakeLater = (name: string, seconds: number) => {
    const timer = setTimeout(() => {
      wakeTimers.delete(timer);
      wake(name);
    }, seconds * 1000);
    timer.unref();
    wakeTimers.add(timer);
  };
  const waiting = new WaitingJobs();
  return {
    boss,
    async send(name, data, options = {}) {
      if (waiting.isWaiting(name, options)) {
        return;
      }
      const { tx, ...sendOptions } = options;
      const sentAt = performance.now();
      const id = await boss.send(
        name,
        data,
        tx ? { ...sendOptions, db: transactionExecutor(tx) } : sendOptions,
      );
      if (id) {
        waiting.stored(name, options, sentAt);
      }
      // This instance works the queue too: it starts the job now rather than at the next poll;
      // one sent in a transaction when the transaction commits (the announcement comes then), one
      // that waits to start when it may.
      if (tx) {
        if (announcesJobs) {
          await announceChange(tx, 'jobs', [name]);
        }
      } else if (typeof sendOptions.startAfter === 'number' && sendOptions.startAfter > 0) {
        if (id) {
          wakeLater(name, sendOptions.startAfter);
        }
      } else {
        wake(name);
      }
    },
    async countUnfinished(name) {
      return boss.getQueueSize(name, { before: 'completed' });
    },
    wake,
    async stop() {
      wakeTimers.forEach((timer) => clearTimeout(timer));
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
      isStopped = true;
    },
  };
}
