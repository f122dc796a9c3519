/**
 * The Speed issue's server figures, on PostgreSQL: the hot reads beside a bare Fastify route at
 * 50 connections, and whether the image list, the patients list and notifications stay flat as
 * the archive grows to 100,000 images (with the plans PostgreSQL chooses for their queries).
 */
import type autocannon from 'autocannon';
import { drizzle } from 'drizzle-orm/node-postgres';
import sharp from 'sharp';
import { IMAGES_PER_PATIENT_CARD, type ImagePage } from '@ra/shared';
import * as schema from '../server/src/db/schema/index.js';
import type { Db } from '../server/src/db/client.js';
import { itemReadableBy, patientReadableBy } from '../server/src/modules/access/access.repository.js';
import {
  listImagesOfPatient,
  listNewestImagesOfPatients,
  selectImageCounts,
} from '../server/src/modules/archive-items/archive-items.repository.js';
import { listNewest } from '../server/src/modules/notifications/notifications.repository.js';
import { listPatients } from '../server/src/modules/patients/patients.repository.js';
import { Api } from './lib/api.js';
import { load, type LoadRow } from './lib/load.js';
import type { BenchDatabase } from './lib/postgres.js';

export const HOT_CONNECTIONS = Number(process.env.BENCH_HOT_CONNECTIONS ?? 50);
const PATIENT_IMAGES = 60;
export const ARCHIVE_SIZES = (process.env.BENCH_ARCHIVE_SIZES ?? '10,1000,100000').split(',').map(Number);
/** Bulk images per bulk patient, so 100,000 images make 1,000 patients of the demo physician. */
const IMAGES_PER_BULK_PATIENT = 100;

export interface Accounts {
  patient: Api;
  physician: Api;
  patientId: string;
  physicianId: string;
}

export async function signInDemoAccounts(base: string): Promise<Accounts> {
  const patient = new Api(base);
  await patient.signIn('patient@example.com', 'demo-password');
  const physician = new Api(base);
  await physician.signIn('physician@example.com', 'demo-password');
  const patientId = (await patient.json<{ uid: string }>('GET', '/api/user/me')).uid;
  const physicianId = (await physician.json<{ uid: string }>('GET', '/api/user/me')).uid;
  return { patient, physician, patientId, physicianId };
}

/** The physician uploads a page and a bit of images for the demo patient (each notifies the patient). */
export async function fillPatientArchive(accounts: Accounts): Promise<void> {
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#345' } })
    .png()
    .toBuffer();
  for (let i = 0; i < PATIENT_IMAGES; i += 1) {
    const url = await accounts.physician.upload(png, png.length);
    await accounts.physician.json('POST', '/api/user/upload-image', {
      patient: accounts.patientId,
      notes: 'bench',
      url,
    });
  }
  for (;;) {
    const page = await accounts.patient.json<ImagePage>(
      'GET',
      `/api/user/${accounts.patientId}/images?limit=200`,
    );
    if (page.images.every((image) => image.thumbnail_url)) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

function at50(options: autocannon.Options): autocannon.Options {
  return { connections: HOT_CONNECTIONS, ...options };
}

async function pollingTag(accounts: Accounts): Promise<string> {
  const response = await fetch(`${accounts.patient.base}/api/notification/polling`, {
    headers: { authorization: accounts.patient.authorization },
  });
  await response.arrayBuffer();
  return response.headers.get('etag') ?? '';
}

/** The hot reads, with the bare route measured in the same run. */
export async function hotReadRows(bareBase: string, accounts: Accounts): Promise<LoadRow[]> {
  const { patient } = accounts;
  const base = patient.base;
  const bearer = { authorization: patient.authorization };
  const tag = await pollingTag(accounts);
  return [
    await load('bare Fastify route', at50({ url: `${bareBase}/bare` })),
    await load('GET /api/hospital/hospitals', at50({ url: `${base}/api/hospital/hospitals` })),
    await load('GET /api/user/me', at50({ url: `${base}/api/user/me`, headers: bearer })),
    await load(
      'GET /api/notification/polling, matching If-None-Match (304)',
      at50({ url: `${base}/api/notification/polling`, headers: { ...bearer, 'if-none-match': tag } }),
      304,
    ),
    await load(
      `GET /api/notification/polling without ETag (${PATIENT_IMAGES} notifications)`,
      at50({ url: `${base}/api/notification/polling`, headers: bearer }),
    ),
    await load(
      `GET /api/user/{uid}/images, a patient's first page of 50 (${PATIENT_IMAGES} images)`,
      at50({ url: `${base}/api/user/${accounts.patientId}/images?limit=50`, headers: bearer }),
    ),
    // The same list a page of 5 at a time: how the cost follows the page's size.
    await load(
      `GET /api/user/{uid}/images?limit=5, the same patient`,
      at50({ url: `${base}/api/user/${accounts.patientId}/images?limit=5`, headers: bearer }),
    ),
    // The ceiling drifts on a shared machine: measured again, the shares can be read against both.
    await load('bare Fastify route, again', at50({ url: `${bareBase}/bare` })),
  ];
}

/**
 * Grows the archive around the measured users to `total` bulk images with SQL: patients of another
 * physician with IMAGES_PER_BULK_PATIENT images each, and one notification per image for their
 * patient. What the measured users see stays the same; only the tables grow.
 */
async function growArchive(database: BenchDatabase, total: number): Promise<void> {
  const bulkPhysician = await database.pool.query<{ id: string }>(
    `insert into users (email, role, first_name, last_name, dob, email_verified_at)
     values ('bulk-physician@bench.test', 'PHYSICIAN', 'Bulk', 'Physician', '1970-01-01', now())
     on conflict (email) do update set last_name = excluded.last_name returning id`,
  );
  const physicianId = bulkPhysician.rows[0]!.id;
  const { rows } = await database.pool.query<{ count: string }>(
    `select count(*) from archive_items where storage_key like 'bench-bulk/%'`,
  );
  const existing = Number(rows[0]!.count);
  for (let done = existing; done < total;) {
    const batch = Math.min(IMAGES_PER_BULK_PATIENT, total - done);
    const index = Math.floor(done / IMAGES_PER_BULK_PATIENT);
    await database.pool.query('begin');
    const patient = await database.pool.query<{ id: string }>(
      `insert into users (email, role, first_name, last_name, dob, email_verified_at)
       values ($1, 'PATIENT', 'Bulk', $2, '1970-01-01', now())
       on conflict (email) do update set last_name = excluded.last_name returning id`,
      [`bulk-${index}@bench.test`, `Bulk ${String(index).padStart(5, '0')}`],
    );
    const patientId = patient.rows[0]!.id;
    await database.pool.query(
      `insert into patient_physicians (patient_id, physician_id) values ($1, $2) on conflict do nothing`,
      [patientId, physicianId],
    );
    await database.pool.query(
      `insert into archive_items (patient_id, uploader_id, storage_key, content_type, size, width, height, created_at)
       select $1, $2, 'bench-bulk/' || gen_random_uuid(), 'image/png', 100, 32, 32,
              now() - (n || ' minutes')::interval
       from generate_series(1, $3::int) as n`,
      [patientId, physicianId, batch],
    );
    await database.pool.query(
      `insert into notifications (user_id, message, "to", created_at)
       select $1, 'A new image was added', null, now() - (n || ' minutes')::interval
       from generate_series(1, $2::int) as n`,
      [patientId, batch],
    );
    await database.pool.query('commit');
    done += batch;
  }
  await database.pool.query('analyze');
}

export interface GrowthRow {
  size: number;
  rows: LoadRow[];
}

/** The three lists at each archive size. */
export async function growthRows(database: BenchDatabase, accounts: Accounts): Promise<GrowthRow[]> {
  const base = accounts.patient.base;
  const result: GrowthRow[] = [];
  for (const size of ARCHIVE_SIZES) {
    await growArchive(database, size);
    result.push({
      size,
      rows: [
        await load(
          "a patient's image list, first page",
          at50({
            url: `${base}/api/user/${accounts.patientId}/images?limit=50`,
            headers: { authorization: accounts.patient.authorization },
          }),
        ),
        await load(
          "a physician's patients list, first page",
          at50({
            url: `${base}/api/user/patients`,
            headers: { authorization: accounts.physician.authorization },
          }),
        ),
        await load(
          "a patient's notifications (no ETag)",
          at50({
            url: `${base}/api/notification/polling`,
            headers: { authorization: accounts.patient.authorization },
          }),
        ),
      ],
    });
  }
  return result;
}

export function printGrowthTable(rows: GrowthRow[]): void {
  const names = rows[0]?.rows.map((row) => row.name) ?? [];
  console.log(
    `\n| ${HOT_CONNECTIONS} connections | ${rows.map((row) => `${row.size} images: req/s, p99 ms, failed`).join(' | ')} |`,
  );
  console.log(`|---|${rows.map(() => '---:').join('|')}|`);
  names.forEach((name, index) => {
    const cells = rows.map((growth) => {
      const row = growth.rows[index]!;
      return `${row.rps.toFixed(0)}, ${row.p99.toFixed(0)}, ${row.failed}`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  });
}

/** EXPLAIN ANALYZE of the queries behind the three lists, built by the server's own repositories. */
export async function explainLists(database: BenchDatabase, accounts: Accounts): Promise<string> {
  const db = drizzle({ client: database.pool, schema }) as unknown as Db;
  const patient = { id: accounts.patientId, role: 'PATIENT' as const, emailVerified: true };
  const physician = { id: accounts.physicianId, role: 'PHYSICIAN' as const, emailVerified: true };
  const { rows: firstPatients } = await database.pool.query<{ id: string }>(
    `select u.id from users u join patient_physicians p on p.patient_id = u.id
     where p.physician_id = $1 order by u.last_name, u.first_name, u.id limit 20`,
    [accounts.physicianId],
  );
  const pageIds = firstPatients.map((row) => row.id);
  const queries = {
    "patient's image list": listImagesOfPatient(db, accounts.patientId, itemReadableBy(patient), {
      limit: 51,
    }),
    "physician's patients list": listPatients(db, (id) => patientReadableBy(physician, id), { limit: 21 }),
    'newest images of the page of patients': listNewestImagesOfPatients(
      db,
      pageIds,
      IMAGES_PER_PATIENT_CARD,
      itemReadableBy(physician),
    ),
    'image counts of the page of patients': selectImageCounts(db, pageIds, itemReadableBy(physician)),
    "patient's notifications": listNewest(db, accounts.patientId, 50),
  };
  const out: string[] = [];
  for (const [name, query] of Object.entries(queries)) {
    const { sql, params } = query.toSQL();
    const plan = await database.pool.query<{ 'QUERY PLAN': string }>(
      `explain (analyze, costs off, timing off, summary on) ${sql}`,
      params,
    );
    out.push(`-- ${name}\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}`);
  }
  return out.join('\n\n');
}
