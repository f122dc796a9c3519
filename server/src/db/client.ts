import fs from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { PgliteThread } from './pglite-thread.js';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
/** The query API both drivers share; services and repositories only see this. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: repositories accept both. */
export type Queryable = Db | Tx;

/** What hears the database's change notifications (change-feed.ts is the one listener). */
export interface ChangeListener {
  onMessage(channel: string, payload: string): void;
  /** The connection that listens was lost: messages may be missed until `onRestored`. */
  onLost(): void;
  onRestored(): void;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Raw SQL for libraries that bring their own (the job queue); several statements when `values` is empty. */
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
  /** LISTENs on `channels` until the returned function is called (change-feed.ts). */
  listen(channels: string[], listener: ChangeListener): Promise<() => Promise<void>>;
}

const migrationsFolder = path.join(import.meta.dirname, 'migrations');
/** Serialises migrations when several server instances start against one PostgreSQL. */
const MIGRATION_LOCK_ID = 7_270_001;
/** How long the change feed waits before reconnecting a lost listening connection. */
const RELISTEN_DELAY_MS = 1_000;

/**
 * Opens PGlite in a folder (`dataDir`) or in memory (`undefined`); `from`, a data folder's dump
 * (PGlite's dumpDataDir), starts it as a copy of that database instead of an empty one.
 * `onFailure` hears of its thread dying (pglite-thread.ts), after which every statement fails.
 */
export async function openPglite(
  dataDir: string | undefined,
  from?: Blob,
  onFailure?: (err: Error) => void,
): Promise<Database & { /** The data folder as PGlite dumps it, for `from`. */ dump(): Promise<Blob> }> {
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    // A new folder is made by PostgreSQL's initdb, which grows PGlite's WebAssembly memory to about
    // 800 MB; that memory is never given back while its thread lives, and a database opened from
    // the folder it made needs under 300 MB. So the thread that made it is ended, and a new one opens.
    if (!from && !fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
      await (await PgliteThread.open({ dataDir })).close();
    }
  }
  // On its own thread, so that no statement holds up this one (pglite-thread.ts).
  const client = await PgliteThread.open(
    { dataDir, loadDataDir: from ? new Uint8Array(await from.arrayBuffer()) : undefined },
    onFailure,
  );
  // Drizzle's PGlite driver calls only `query` and `transaction`, which the thread answers as PGlite.
  const drizzleClient = client as unknown as PGlite;
  const db = drizzlePglite({ client: drizzleClient, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(drizzlePglite({ client: drizzleClient, schema }), { migrationsFolder });
    },
    ping: async () => {
      await client.query('select 1');
    },
    close: () => client.close(),
    dump: () => client.dumpDataDir(),
    executeSql: async (text, values) => {
      if (values.length > 0) {
        return { rows: (await client.query(text, values)).rows };
      }
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    },
    listen: async (channels, listener) => {
      // One process owns an embedded database: its notifications never travel a connection.
      const stops = await Promise.all(
        channels.map((channel) => client.listen(channel, (payload) => listener.onMessage(channel, payload))),
      );
      return async () => {
        await Promise.all(stops.map((stop) => stop()));
      };
    },
  };
}

/**
 * A connection of its own that LISTENs on `channels`; when it is lost the listener hears so, and
 * a new one is opened until that succeeds.
 */
async function listenOnPostgres(
  url: string,
  channels: string[],
  listener: ChangeListener,
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let isStopped = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const next = new pg.Client({ connectionString: url });
    next.on('notification', (message) => listener.onMessage(message.channel, message.payload ?? ''));
    const lost = () => {
      if (client !== next || isStopped) {
        return;
      }
      client = undefined;
      listener.onLost();
      retry = setTimeout(reconnect, RELISTEN_DELAY_MS);
    };
    next.on('error', lost);
    next.on('end', lost);
    try {
      await next.connect();
      for (const channel of channels) {
        await next.query(`listen ${pg.escapeIdentifier(channel)}`);
      }
    } catch (err) {
      await next.end().catch(() => undefined);
      throw err;
    }
    client = next;
  };
  const reconnect = () => {
    connect().then(
      () => listener.onRestored(),
      () => {
        if (!isStopped) {
          retry = setTimeout(reconnect, RELISTEN_DELAY_MS);
        }
      },
    );
  };

  await connect();
  return async () => {
    isStopped = true;
    clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

export function openPostgres(url: string, poolSize: number): Database {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle connection that the server drops (restart, failover) must not crash the process;
  // the pool replaces it on the next query.
  pool.on('error', (err: Error & { code?: string }) => {
    if (err.code !== '57P01') {
      console.error('PostgreSQL connection error:', err.message);
    }
  });
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      // A dedicated connection so the advisory lock and the migration share one session.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg({ client, schema }), { migrationsFolder });
      } finally {
        await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => undefined);
        await client.end();
      }
    },
    ping: async () => {
      await pool.query('select 1');
    },
    close: () => pool.end(),
    executeSql: async (text, values) => ({ rows: (await pool.query(text, values)).rows as unknown[] }),
    listen: (channels, listener) => listenOnPostgres(url, channels, listener),
  };
}

export async function openDatabase(options: {
  databaseUrl: string | undefined;
  dataDir: string;
  poolSize: number;
  /** The embedded database's thread died: nothing can be stored or read any more. */
  onEmbeddedFailure?: (err: Error) => void;
}): Promise<Database> {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolSize)
    : openPglite(path.join(options.dataDir, 'db'), undefined, options.onEmbeddedFailure);
}
