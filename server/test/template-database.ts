import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openPglite, openPostgres } from '../src/db/client.js';

const migrationsDir = path.resolve(import.meta.dirname, '../src/db/migrations');
/** Serialises the making of a template among test runs that share one PostgreSQL server. */
const TEMPLATE_LOCK_ID = 7_270_002;

/** A name that changes whenever a migration does, so a template never lags the schema. */
function templateName(): string {
  return `ra_test_template_${schemaHash()}`;
}

function schemaHash(): string {
  const hash = crypto.createHash('sha256');
  for (const file of fs.readdirSync(migrationsDir, { recursive: true }).map(String).sort()) {
    const full = path.join(migrationsDir, file);
    if (fs.statSync(full).isFile()) {
      hash.update(file).update(fs.readFileSync(full));
    }
  }
  return hash.digest('hex').slice(0, 12);
}

function urlOf(adminUrl: string, database: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A migrated database on the server of `adminUrl` that each test's database is copied from
 * (`create database … template`): a copy takes a fraction of the time the migrations take. Made
 * once per schema under another name and renamed when whole, so a run cut off half-way leaves no
 * half-migrated template behind.
 */
export async function migratedTemplate(adminUrl: string): Promise<string> {
  const name = templateName();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('select pg_advisory_lock($1)', [TEMPLATE_LOCK_ID]);
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      const building = `${name}_${crypto.randomBytes(3).toString('hex')}`;
      await admin.query(`create database ${building}`);
      const database = openPostgres(urlOf(adminUrl, building), 1);
      try {
        await database.migrate();
      } finally {
        await database.close();
      }
      await admin.query(`alter database ${building} rename to ${name}`);
    }
    return name;
  } finally {
    await admin.query('select pg_advisory_unlock($1)', [TEMPLATE_LOCK_ID]).catch(() => undefined);
    await admin.end();
  }
}

/**
 * On PGlite, the same idea: a migrated in-memory database dumped to a file (PGlite's
 * dumpDataDir) that each test's database is loaded from, in about a quarter of the time an empty
 * one takes to be made and migrated. Made once per schema and written under its final name only
 * when whole. Returns the file's path.
 */
export async function migratedPgliteDump(): Promise<string> {
  // A dump is PGlite's data folder: another PGlite version may not read it.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const { version } = JSON.parse(
    fs.readFileSync(path.join(path.dirname(entry), '..', 'package.json'), 'utf8'),
  ) as { version: string };
  const file = path.join(os.tmpdir(), `ra-test-pglite-${version}-${schemaHash()}.tar`);
  if (!fs.existsSync(file)) {
    const database = await openPglite(undefined);
    try {
      await database.migrate();
      const building = `${file}.${crypto.randomBytes(3).toString('hex')}`;
      fs.writeFileSync(building, Buffer.from(await (await database.dump()).arrayBuffer()));
      fs.renameSync(building, file);
    } finally {
      await database.close();
    }
  }
  return file;
}
