import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.js';
import type { JobDefinition } from './job-queue.js';

export const DATABASE_UPKEEP_JOB = 'database-upkeep';

/**
 * When a table needs upkeep, by the rules and default settings of PostgreSQL's autovacuum: a
 * VACUUM once its dead rows, or the rows inserted since its last VACUUM, pass a base count plus a
 * share of its rows; an ANALYZE once the rows changed since its last ANALYZE do.
 */
const RULES = {
  deadRows: { base: 50, share: 0.2 },
  insertedRows: { base: 1000, share: 0.2 },
  changedRows: { base: 50, share: 0.1 },
} as const;

/** One table's activity as the statistics collector counts it (pg_stat_user_tables). */
export interface TableActivity {
  schema: string;
  table: string;
  /** The rows as its last VACUUM or ANALYZE counted them; -1 when neither ever ran. */
  rows: number;
  liveRows: number;
  deadRows: number;
  insertedSinceVacuum: number;
  changedSinceAnalyze: number;
}

/** What autovacuum would do to the table now: VACUUM (with ANALYZE), ANALYZE alone, or nothing. */
export function upkeepOf(activity: TableActivity): 'vacuum' | 'analyze' | undefined {
  const rows = Math.max(activity.rows, 0);
  const over = (count: number, rule: { base: number; share: number }) =>
    count > rule.base + rule.share * rows;
  if (over(activity.deadRows, RULES.deadRows) || over(activity.insertedSinceVacuum, RULES.insertedRows)) {
    return 'vacuum';
  }
  // A table never analysed has no statistics at all, and the planner guesses its every condition.
  if (over(activity.changedSinceAnalyze, RULES.changedRows) || (activity.rows < 0 && activity.liveRows > 0)) {
    return 'analyze';
  }
  return undefined;
}

const ACTIVITY = `select s.schemaname as schema, s.relname as "table", c.reltuples::float8 as rows,
  s.n_live_tup::float8 as "liveRows", s.n_dead_tup::float8 as "deadRows",
  s.n_ins_since_vacuum::float8 as "insertedSinceVacuum", s.n_mod_since_analyze::float8 as "changedSinceAnalyze"
  from pg_stat_user_tables s join pg_class c on c.oid = s.relid`;

function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * The embedded database's autovacuum. PGlite runs PostgreSQL as a single user, with no autovacuum:
 * without this, no table would ever get statistics, and the rows that updates and deletes leave
 * behind (the job queue's above all: every job is inserted, updated and deleted) would never be
 * removed, so those tables and their indexes would only grow. Every ten minutes, the tables that
 * autovacuum would see to are vacuumed or analysed, one statement each; PGlite runs one statement
 * at a time, so each waits for the requests before it and holds those after it only as long as its
 * own table takes. Counts start again from zero when the server starts. Not registered on a
 * PostgreSQL server, whose own autovacuum does this.
 */
export function databaseUpkeepJob(
  database: Pick<Database, 'executeSql'>,
  log: Pick<FastifyBaseLogger, 'info'>,
): JobDefinition<object> {
  return {
    name: DATABASE_UPKEEP_JOB,
    schedule: '*/10 * * * *',
    retryLimit: 1,
    async handle() {
      const { rows } = await database.executeSql(ACTIVITY, []);
      const done: { table: string; upkeep: 'vacuum' | 'analyze'; ms: number }[] = [];
      for (const activity of rows as TableActivity[]) {
        const upkeep = upkeepOf(activity);
        if (upkeep) {
          const table = `${quoted(activity.schema)}.${quoted(activity.table)}`;
          const started = performance.now();
          await database.executeSql(
            upkeep === 'vacuum' ? `vacuum (analyze) ${table}` : `analyze ${table}`,
            [],
          );
          const ms = Math.round(performance.now() - started);
          done.push({ table: `${activity.schema}.${activity.table}`, upkeep, ms });
        }
      }
      // Which tables held the embedded database, and for how long: requests waited meanwhile.
      if (done.length > 0) {
        log.info({ tables: done }, 'database upkeep');
      }
    },
  };
}
