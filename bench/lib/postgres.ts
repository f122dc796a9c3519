import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startAppServer } from './servers.js';

/** The local PostgreSQL the bench creates its throwaway database in (trust authentication). */
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  url: string;
  pool: pg.Pool;
  drop(): Promise<void>;
}

/** A fresh database on the local PostgreSQL, or null when none answers (the rows are then skipped). */
export async function createBenchDatabase(): Promise<BenchDatabase | null> {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `ra_bench_${process.pid}_${Date.now()}`;
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    url: url.toString(),
    pool,
    drop: async () => {
      await pool.end();
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** The production server on that database, with the demo data; returns its base URL. */
export function startPostgresServer(databaseUrl: string): Promise<string> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-bench-pg-'));
  return startAppServer(dataDir, { DATABASE_URL: databaseUrl });
}
