import fs from 'node:fs';
import { getTableName, isTable } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import * as schema from '../../db/schema/index.js';

/*
 * Caches of what people may read (the item lists, signed per viewer) are dropped when the change
 * feed announces a change to the archive. A table the access queries read without a trigger that
 * announces its changes would let a cache outlive a revoked right: this test names such a table.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The tables access.repository.ts imports, read from its own import lines. */
function tablesReadByAccess(): string[] {
  const source = fs.readFileSync(new URL('./access.repository.ts', import.meta.url), 'utf8');
  const names = [
    ...source.matchAll(/import \{([^}]*)\} from '\.\.\/\.\.\/db\/schema\/[\w-]+\.js';/g),
  ].flatMap((match) => match[1]!.split(',').map((name) => name.trim()));
  const tables = names.map((name) => (schema as Record<string, unknown>)[name]).filter(isTable);
  expect(tables.length, 'the access queries read tables').toBeGreaterThan(0);
  return tables.map((table) => getTableName(table));
}

/** The tables with a trigger calling a function whose name starts with `prefix`. */
async function tablesWithTrigger(prefix: string): Promise<Set<string>> {
  const { rows } = (await t.database.executeSql(
    `select distinct c.relname as "table"
     from pg_trigger tg
     join pg_class c on c.oid = tg.tgrelid
     join pg_proc p on p.oid = tg.tgfoid
     where not tg.tgisinternal and p.proname like $1`,
    [`${prefix}%`],
  )) as { rows: { table: string }[] };
  return new Set(rows.map((row) => row.table));
}

describe('the access queries and the change feed', () => {
  it('reads only tables whose changes the feed announces', async () => {
    const withTrigger = await tablesWithTrigger('announce_archive');
    expect(tablesReadByAccess().filter((table) => !withTrigger.has(table))).toEqual([]);
  });

  // The access decisions cached per patient (ctx.accessDecisions) are dropped on the "access" topic.
  it('reads only tables whose changes the "access" topic announces', async () => {
    const withTrigger = await tablesWithTrigger('announce_access');
    expect(tablesReadByAccess().filter((table) => !withTrigger.has(table))).toEqual([]);
  });
});
