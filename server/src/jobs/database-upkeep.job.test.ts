import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { soon } from '../../test/soon.js';
import {
  databaseUpkeepJob,
  DATABASE_UPKEEP_JOB,
  upkeepOf,
  type TableActivity,
} from './database-upkeep.job.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const quiet: TableActivity = {
  schema: 'public',
  table: 'quiet',
  rows: 10_000,
  liveRows: 10_000,
  deadRows: 0,
  insertedSinceVacuum: 0,
  changedSinceAnalyze: 0,
};

describe('which tables the upkeep sees to (autovacuum rules and defaults)', () => {
  it('vacuums past 50 dead rows and a fifth of the table, or 1,000 inserted rows and a fifth', () => {
    expect(upkeepOf({ ...quiet, deadRows: 2_050 })).toBeUndefined();
    expect(upkeepOf({ ...quiet, deadRows: 2_051 })).toBe('vacuum');
    expect(upkeepOf({ ...quiet, insertedSinceVacuum: 3_000 })).toBeUndefined();
    expect(upkeepOf({ ...quiet, insertedSinceVacuum: 3_001 })).toBe('vacuum');
  });

  it('analyses past 50 changed rows and a tenth of the table, and any table with rows never analysed', () => {
    expect(upkeepOf({ ...quiet, changedSinceAnalyze: 1_050 })).toBeUndefined();
    expect(upkeepOf({ ...quiet, changedSinceAnalyze: 1_051 })).toBe('analyze');
    expect(upkeepOf({ ...quiet, rows: -1, liveRows: 3 })).toBe('analyze');
    expect(upkeepOf({ ...quiet, rows: -1, liveRows: 0 })).toBeUndefined();
    expect(upkeepOf(quiet)).toBeUndefined();
  });
});

describe('the upkeep job', () => {
  const stats = async (table: string) => {
    const { rows } = await t.database.executeSql(
      `select n_dead_tup::int as dead, last_vacuum is not null as vacuumed, last_analyze is not null as analysed
       from pg_stat_user_tables where relname = $1`,
      [table],
    );
    return rows[0] as { dead: number; vacuumed: boolean; analysed: boolean };
  };

  it.skipIf(process.env.TEST_DATABASE_URL)(
    'is scheduled on the embedded database and vacuums a table of dead rows, analyses one never analysed, leaves the rest',
    { timeout: 30_000 },
    async () => {
      const { rows: schedules } = await t.database.executeSql(
        'select name from pgboss.schedule where name = $1',
        [DATABASE_UPKEEP_JOB],
      );
      expect(schedules).toHaveLength(1);

      await t.database.executeSql(
        `create table upkeep_churned (id serial primary key, note text);
         create table upkeep_filled (id serial primary key, note text);
         create table upkeep_empty (id serial primary key, note text);
         insert into upkeep_churned (note) select repeat('x', 200) from generate_series(1, 500);
         delete from upkeep_churned where id > 100;
         insert into upkeep_filled (note) select 'kept' from generate_series(1, 20);`,
        [],
      );
      // The statistics collector counts at the end of a transaction, at most once a second.
      expect(
        await soon(async () => {
          await t.database.executeSql('select 1', []);
          return (await stats('upkeep_churned'))?.dead === 400;
        }, 5_000),
      ).toBe(true);

      const logged: { tables: { table: string; upkeep: string; ms: number }[] }[] = [];
      await databaseUpkeepJob(t.database, {
        info: (entry: (typeof logged)[number]) => logged.push(entry),
      }).handle({});

      expect(await stats('upkeep_churned')).toEqual({ dead: 0, vacuumed: true, analysed: true });
      expect(await stats('upkeep_filled')).toEqual({ dead: 0, vacuumed: false, analysed: true });
      expect(await stats('upkeep_empty')).toEqual({ dead: 0, vacuumed: false, analysed: false });
      // One line says which tables held the database, and for how long.
      expect(logged).toHaveLength(1);
      expect(logged[0]!.tables).toEqual(
        expect.arrayContaining([
          { table: 'public.upkeep_churned', upkeep: 'vacuum', ms: expect.any(Number) },
          { table: 'public.upkeep_filled', upkeep: 'analyze', ms: expect.any(Number) },
        ]),
      );
      expect(logged[0]!.tables.map(({ table }) => table)).not.toContain('public.upkeep_empty');
    },
  );

  it.runIf(process.env.TEST_DATABASE_URL)(
    'is not scheduled on a PostgreSQL server, whose autovacuum does the same',
    async () => {
      const { rows } = await t.database.executeSql('select name from pgboss.schedule where name = $1', [
        DATABASE_UPKEEP_JOB,
      ]);
      expect(rows).toHaveLength(0);
    },
  );
});
