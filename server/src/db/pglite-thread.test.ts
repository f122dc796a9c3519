import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteThread } from './pglite-thread.js';

/*
 * The embedded database on its own thread: this thread stays free while a statement runs, and
 * everything else is PGlite's behaviour as the application relies on it — values, errors with
 * their codes, transactions that commit, roll back or fail at COMMIT, notifications heard before
 * the statement that raised them resolves, dumps, and a closed database refusing work.
 */

let db: PgliteThread;

beforeAll(async () => {
  db = await PgliteThread.open({});
  await db.exec(`
    create table accounts (id int primary key, owner text not null, balance bigint not null, opened date);
    create table pledges (id int primary key, account int references accounts (id) deferrable initially deferred);
  `);
});

afterAll(async () => {
  await db.close();
});

describe('the embedded database on its own thread', () => {
  it('leaves this thread free while a statement runs', async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    await db.query('select pg_sleep(0.6)');
    delay.disable();
    expect(performance.now() - started).toBeGreaterThanOrEqual(550);
    // On this thread, the statement would hold the event loop for its whole 600 ms.
    expect(delay.max / 1e6).toBeLessThan(300);
  });

  it('answers values as PGlite does, Drizzle’s kept text included', async () => {
    await db.query('insert into accounts values ($1, $2, $3, $4)', [
      1,
      'Ann',
      9_007_199_254_740_993n,
      '2020-01-02',
    ]);
    const parsed = await db.query<{ owner: string; balance: bigint; opened: Date }>(
      'select owner, balance, opened from accounts where id = $1',
      [1],
    );
    expect(parsed.rows).toEqual([
      { owner: 'Ann', balance: 9_007_199_254_740_993n, opened: new Date('2020-01-02') },
    ]);
    const kept = await db.query<unknown[]>('select opened from accounts', [], {
      rowMode: 'array',
      parsers: { 1082: (value: string) => value },
    });
    expect(kept.rows).toEqual([['2020-01-02']]);
  });

  it('throws PostgreSQL’s errors with their codes, and goes on', async () => {
    const err = (await db
      .query('insert into accounts values (1, $1, 0, null)', ['Bob'])
      .catch((e: unknown) => e)) as {
      code?: string;
      message: string;
    };
    expect(err.code).toBe('23505');
    expect(err.message).toMatch(/duplicate key/);
    await expect(db.query('select 1 as one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
  });

  it('commits a transaction, rolls back one whose callback throws, and fails one whose COMMIT fails', async () => {
    await db.transaction(async (tx) => {
      await tx.query('insert into accounts values (2, $1, 10, null)', ['Cy']);
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.query('insert into accounts values (3, $1, 10, null)', ['Di']);
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    // The deferred foreign key is checked at COMMIT, after the callback has returned.
    const commit = await db
      .transaction(async (tx) => {
        await tx.query('insert into pledges values (1, 99)');
        return 'returned';
      })
      .catch((e: unknown) => e as { code?: string });
    expect(commit).toMatchObject({ code: '23503' });
    const { rows } = await db.query<{ id: number }>('select id from accounts order by id');
    expect(rows.map((row) => row.id)).toEqual([1, 2]);
    await expect(db.query('select count(*)::int as n from pledges')).resolves.toMatchObject({
      rows: [{ n: 0 }],
    });
  });

  it('keeps statements outside a transaction waiting until it ends', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const transaction = db.transaction(async (tx) => {
      await tx.query('update accounts set balance = 0 where id = 1');
      await held;
      await tx.query('update accounts set balance = 5 where id = 1');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const outside = db.query<{ balance: number }>('select balance from accounts where id = 1');
    release();
    await transaction;
    // PGlite answers a bigint that fits a number as a number.
    expect((await outside).rows).toEqual([{ balance: 5 }]);
  });

  it('hands a notification over before the statement that raised it resolves', async () => {
    const heard: string[] = [];
    const stop = await db.listen('changes', (payload) => heard.push(payload));
    await db.query(`select pg_notify('changes', 'account 1')`);
    expect(heard).toEqual(['account 1']);
    await stop();
    await db.query(`select pg_notify('changes', 'account 2')`);
    expect(heard).toEqual(['account 1']);
  });

  it('dumps its data, which a new database starts from', async () => {
    const dump = await db.dumpDataDir();
    const copy = await PgliteThread.open({ loadDataDir: new Uint8Array(await dump.arrayBuffer()) });
    try {
      const { rows } = await copy.query<{ owner: string }>('select owner from accounts order by id');
      expect(rows.map((row) => row.owner)).toEqual(['Ann', 'Cy']);
    } finally {
      await copy.close();
    }
  });

  it('refuses work once closed, and a close is no failure', async () => {
    const failures: Error[] = [];
    const other = await PgliteThread.open({}, (err) => failures.push(err));
    await other.close();
    await expect(other.query('select 1')).rejects.toThrow('closed');
    expect(failures).toEqual([]);
  });

  it('tells of its thread dying, and fails the statements under way and every one after', async () => {
    const failures: Error[] = [];
    const other = await PgliteThread.open({}, (err) => failures.push(err));
    const underWay = other.query('select pg_sleep(2)');
    // What a crash of the thread looks like from here (the thread is private to the class).
    await (other as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(underWay).rejects.toThrow('The embedded database stopped');
    await expect(other.query('select 1')).rejects.toThrow('The embedded database stopped');
    expect(failures.map((err) => err.message)).toEqual(['The embedded database stopped (exit code 1).']);
  });
});
