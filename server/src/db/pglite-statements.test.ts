import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withOneRoundStatements } from './pglite-statements.js';

/*
 * Statements sent in one round answer exactly what PGlite's own `query` answers: the same values
 * in and out for every type the application binds, the same errors, the same transactions.
 */

let client: PGlite;
let statements: PGlite;

beforeAll(async () => {
  client = await PGlite.create();
  statements = withOneRoundStatements(client);
  await client.exec(`
    create table kinds (
      id uuid primary key, name text, born date, at timestamptz, tags text[], doc jsonb,
      bytes bytea, count bigint, ok boolean, ratio double precision
    );
  `);
});

afterAll(async () => {
  await client.close();
});

const row = {
  id: '6f1c1b0e-8f4a-4c57-9a4e-2f7f2f0b7d11',
  name: 'O\'Hara, "Jo"',
  born: '1990-07-04',
  at: new Date('2026-11-27T10:11:12.345Z'),
  tags: ['a b', 'c,"d"', ''],
  doc: { list: [1, 'two', null], nested: { deep: true } },
  bytes: new Uint8Array([0, 1, 254, 255]),
  count: 9_007_199_254_740_993n,
  ok: false,
  ratio: 0.125,
};
const insert = `insert into kinds values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;
const values = (id: string) => [
  id,
  row.name,
  row.born,
  row.at,
  row.tags,
  row.doc,
  row.bytes,
  row.count,
  row.ok,
  row.ratio,
];

describe('statements in one round', () => {
  it('binds and reads every type as PGlite does', async () => {
    await statements.query(insert, values(row.id));
    const other = '0e0c6a55-2a43-4b1b-8f0c-6d0c1d2f3a44';
    await client.query(insert, values(other));
    const select = 'select * from kinds where id = $1';
    const ours = await statements.query(select, [row.id]);
    const theirs = await client.query(select, [other]);
    expect({ ...(ours.rows[0] as object), id: other }).toEqual(theirs.rows[0]);
    expect(ours.fields).toEqual(theirs.fields);
    expect((ours.rows[0] as { doc: unknown }).doc).toEqual(row.doc);

    // Arrays of uuids (= ANY($1)), nulls, and rows as arrays (Drizzle's mode) the same way.
    const byIds = 'select name, null::text as nothing from kinds where id = any($1) order by id';
    const options = { rowMode: 'array' as const };
    expect(await statements.query(byIds, [[row.id, other]], options)).toEqual(
      await client.query(byIds, [[row.id, other]], options),
    );
    expect((await statements.query('select $1::text is null as missing', [null])).rows).toEqual([
      { missing: true },
    ]);
  });

  it('reads with the query’s own parsers over PGlite’s, each query with its own', async () => {
    const select = 'select at, count from kinds where id = $1';
    const keepTime = { parsers: { 1184: (value: string) => `kept ${value}` } };
    const keepCount = { parsers: { 20: (value: string) => `kept ${value}` } };
    for (let run = 0; run < 2; run += 1) {
      const kept = (await statements.query(select, [row.id], keepTime)).rows[0] as Record<string, unknown>;
      expect(kept.at).toMatch(/^kept 2026-11-27/);
      expect(kept.count).toBe(row.count);
      const counted = (await statements.query(select, [row.id], keepCount)).rows[0] as Record<
        string,
        unknown
      >;
      expect(counted.at).toEqual(row.at);
      expect(counted.count).toBe(`kept ${row.count}`);
      expect((await statements.query(select, [row.id])).rows).toEqual([{ at: row.at, count: row.count }]);
    }
  });

  it('fails as PGlite fails, and goes on working', async () => {
    const duplicate = statements.query(insert, values(row.id));
    await expect(duplicate).rejects.toMatchObject({ code: '23505' });
    await expect(statements.query('select nonsense from nowhere')).rejects.toMatchObject({ code: '42P01' });
    expect((await statements.query('select count(*)::integer as n from kinds')).rows).toEqual([{ n: 2 }]);
  });

  it('runs transactions: committed when they end, rolled back when they throw', async () => {
    const id = 'a8a4b9a0-58a6-4c59-b7f2-53a2b3bb1e01';
    await expect(
      statements.transaction(async (tx) => {
        await tx.query(insert, values(id));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect((await statements.query('select 1 from kinds where id = $1', [id])).rows).toEqual([]);

    await statements.transaction(async (tx) => {
      await tx.query(insert, values(id));
    });
    expect((await statements.query('select 1 as found from kinds where id = $1', [id])).rows).toEqual([
      { found: 1 },
    ]);
  });

  it('learns a statement’s types once, and a changed table anew from its new text', async () => {
    await statements.query('create table later (n integer)');
    await statements.query('insert into later values ($1)', [41]);
    expect((await statements.query('select n + 1 as next from later where n = $1', [41])).rows).toEqual([
      { next: 42 },
    ]);
  });

  it('keeps a bounded number of statements prepared, and every statement keeps working', async () => {
    const count = async () =>
      (await client.query<{ n: number }>('select count(*)::integer as n from pg_prepared_statements'))
        .rows[0]!.n;
    for (let i = 0; i < 520; i += 1) {
      expect((await statements.query(`select $1::integer + ${i} as n`, [1])).rows).toEqual([{ n: i + 1 }]);
    }
    // One more prepare closes the statements forgotten by the earlier ones.
    await statements.query('select 2 as two');
    expect(await count()).toBeLessThanOrEqual(500);
    expect(await count()).toBeGreaterThan(400);
    // The oldest, forgotten, is prepared again when it runs again.
    expect((await statements.query('select $1::integer + 0 as n', [5])).rows).toEqual([{ n: 5 }]);
  });

  it('prepares a statement again when its table changed the columns it answers', async () => {
    await statements.query('create table shifting (a integer)');
    await statements.query('insert into shifting values (1)');
    const select = 'select * from shifting';
    expect((await statements.query(select)).rows).toEqual([{ a: 1 }]);
    // Outside a transaction the refused statement is prepared again and runs at once.
    await statements.query('alter table shifting add column b integer');
    expect((await statements.query(select)).rows).toEqual([{ a: 1, b: null }]);
    // Inside one, the refusal aborts the transaction as PostgreSQL does; the next run answers.
    await statements.query('alter table shifting add column c integer');
    await expect(statements.transaction((tx) => tx.query(select))).rejects.toThrow(
      'cached plan must not change result type',
    );
    expect((await statements.query(select)).rows).toEqual([{ a: 1, b: null, c: null }]);
  });
});
