import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';

/**
 * `column = any($1::uuid[])`: the ids travel as one array parameter, not one parameter each, so
 * a page of fifty ids costs the query builder and the driver one value instead of fifty.
 */
export function isAnyUuidOf(column: SQLWrapper, ids: readonly string[]): SQL {
  return sql`${column} = any(${sql.param(ids)}::uuid[])`;
}
