import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { bearer, createPatient, createPhysician, createRadiologist, signIn } from '../../test/factories.js';
import { pngImage, uploadFile } from '../../test/uploads.js';
import { passwordTokens } from '../db/schema/identity.js';
import { archiveItems } from '../db/schema/archive-items.js';
import { users } from '../db/schema/users.js';
import { linkPatient } from '../modules/patients/patients.repository.js';
import { ChangeFeed } from '../db/change-feed.js';
import { startJobQueue, type JobSender } from './job-queue.js';
import { THUMBNAIL_JOB } from '../modules/archive-items/index.js';
import { thumbnailSweepJob } from '../modules/studies/index.js';
import { pictureSweepJob, PROFILE_PICTURE_JOB } from '../modules/users/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, { jobPollingSeconds: 0.5 });
});
afterAll(() => t.close());

/**
 * Runs `work` while the job queue refuses every job, as when its database connection fails: on
 * every instance that may answer (test-app.ts's proxy mode has two).
 */
async function withQueueDown<T>(work: () => Promise<T>): Promise<T> {
  const restores = t.instances.map(({ ctx: { jobs } }) => {
    const original = Object.getOwnPropertyDescriptor(jobs, 'send')!;
    jobs.send = () => Promise.reject(new Error('the job queue is down'));
    return () => Object.defineProperty(jobs, 'send', original);
  });
  try {
    return await work();
  } finally {
    restores.forEach((restore) => restore());
  }
}

describe('work queued after a commit', () => {
  it('cannot turn a stored image into a failed upload; the sweep queues its thumbnail later', async () => {
    const physician = await createPhysician(t.database.db);
    const patient = await createPatient(t.database.db);
    await linkPatient(t.database.db, patient.id, physician.id);
    const { token } = await signIn(t.app, physician.email);
    const url = await uploadFile(t.app, token, await pngImage());

    const response = await withQueueDown(() =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/upload-image',
        headers: bearer(token),
        payload: { patient: patient.id, notes: 'Stored anyway.', url },
      }),
    );
    expect(response.statusCode).toBe(201);
    const uid = response.json().uid as string;
    const image = await t.app.inject({ method: 'GET', url: `/api/image/${uid}`, headers: bearer(token) });
    expect(image.statusCode).toBe(200);
    expect(image.json().image.thumbnail_url).toBeNull();

    const queued: { name: string; data: object }[] = [];
    const recorder: Pick<JobSender, 'send'> = {
      send: (name, data) => Promise.resolve(void queued.push({ name, data })),
    };
    await thumbnailSweepJob(t.database.db, recorder).handle({});
    expect(queued).toContainEqual({ name: THUMBNAIL_JOB, data: { imageId: uid } });
    const [row] = await t.database.db.select().from(archiveItems).where(eq(archiveItems.id, uid));
    expect(row?.thumbnailKey).toBeNull();
  });

  it('cannot turn a stored profile picture into a failed profile update', async () => {
    const radiologist = await createRadiologist(t.database.db);
    const { token } = await signIn(t.app, radiologist.email);
    const url = await uploadFile(t.app, token, await pngImage(60, 60), 'profile');
    const response = await withQueueDown(() =>
      t.app.inject({
        method: 'PUT',
        url: '/api/user/profile',
        headers: bearer(token),
        payload: { profile_image_url: url },
      }),
    );
    expect(response.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(users).where(eq(users.id, radiologist.id));
    expect(row?.pictureKey).toBeTruthy();
    expect(row?.pictureCropKey).toBeNull();

    const queued: { name: string }[] = [];
    await pictureSweepJob(t.database.db, {
      send: (name) => Promise.resolve(void queued.push({ name })),
    }).handle({});
    expect(queued).toContainEqual({ name: PROFILE_PICTURE_JOB });
  });

  it('stores a password reset link and its email together, or neither', async () => {
    const patient = await createPatient(t.database.db);
    // The email is queued in the link's own transaction: a queue that cannot store it stores no link.
    const response = await withQueueDown(() =>
      t.app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { email: patient.email } }),
    );
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Something went wrong.' });
    const links = await t.database.db
      .select()
      .from(passwordTokens)
      .where(eq(passwordTokens.userId, patient.id));
    expect(links).toEqual([]);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { email: patient.email },
    });
    expect(again.statusCode).toBe(200);
    const stored = await t.database.db
      .select()
      .from(passwordTokens)
      .where(eq(passwordTokens.userId, patient.id));
    expect(stored).toHaveLength(1);
  });
});

describe('a singleton job that waits to start', () => {
  it('is not sent again while the one this instance queued waits; other jobs always are', async () => {
    const queue = await startJobQueue(t.database, [], t.app.log, { isWorking: false });
    try {
      const statements: string[] = [];
      const send = queue.boss.send.bind(queue.boss);
      queue.boss.send = ((...args: Parameters<typeof send>) => {
        statements.push(String(args[0]));
        return send(...args);
      }) as typeof send;
      const key = crypto.randomUUID();
      const waiting = { singletonKey: key, singletonSeconds: 5, startAfter: 5 };
      for (let send = 0; send < 3; send += 1) {
        await queue.send(THUMBNAIL_JOB, { imageId: key }, waiting);
      }
      expect(statements).toHaveLength(1);
      // Another key, a job that starts at once, or one that waits only a moment go to the database.
      await queue.send(THUMBNAIL_JOB, { imageId: key }, { ...waiting, singletonKey: crypto.randomUUID() });
      await queue.send(THUMBNAIL_JOB, { imageId: key }, { singletonKey: key, singletonSeconds: 5 });
      await queue.send(THUMBNAIL_JOB, { imageId: key }, { singletonKey: key, startAfter: 1 });
      expect(statements).toHaveLength(4);
      const { rows } = (await t.database.executeSql(
        `select count(*)::int as stored from pgboss.job where singleton_key = $1 and start_after > now()`,
        [key],
      )) as { rows: { stored: number }[] };
      expect(rows[0]!.stored).toBeGreaterThanOrEqual(1);
    } finally {
      await queue.stop();
    }
  });
});

describe('waking workers instead of polling', () => {
  it('runs a job sent at once, one sent in a transaction when it commits, one that waits when it may start', async () => {
    const changes = new ChangeFeed();
    await changes.start(t.database);
    const name = `wake-test-${crypto.randomUUID()}`;
    const ran = new Map<string, number>();
    const queue = await startJobQueue(
      t.database,
      [{ name, retryLimit: 0, handle: async (data: { id: string }) => void ran.set(data.id, Date.now()) }],
      t.app.log,
      // Polling alone would find nothing within this test.
      { pollingIntervalSeconds: 600, changes },
    );
    const ranWithin = (id: string, ms: number) =>
      expect.poll(() => ran.has(id), { timeout: ms, interval: 50 }).toBe(true);
    try {
      // The worker's first look at its queue happens as it starts; jobs below come after it.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await queue.send(name, { id: 'plain' });
      await ranWithin('plain', 3_000);

      await t.database.db
        .transaction(async (tx) => {
          await queue.send(name, { id: 'rolled-back' }, { tx });
          throw new Error('roll back');
        })
        .catch(() => undefined);
      await t.database.db.transaction(async (tx) => {
        await queue.send(name, { id: 'committed' }, { tx });
      });
      await ranWithin('committed', 3_000);

      const sentAt = Date.now();
      await queue.send(name, { id: 'waiting' }, { startAfter: 1 });
      await ranWithin('waiting', 5_000);
      expect(ran.get('waiting')! - sentAt).toBeGreaterThanOrEqual(900);
      expect(ran.has('rolled-back')).toBe(false);
    } finally {
      await queue.stop();
      await changes.close();
    }
  });
});

describe('stopping the queue', () => {
  it('lets a job that finishes after the stop report without touching the database', async () => {
    const warnings: unknown[] = [];
    const log = Object.create(t.app.log) as typeof t.app.log;
    log.warn = (...args: unknown[]) => void warnings.push(args.at(-1));
    const queue = await startJobQueue(t.database, [], log, { isWorking: false });
    await queue.stop();
    // What pg-boss does when a handler outlives the graceful stop: it completes the job late.
    await expect(queue.boss.complete(THUMBNAIL_JOB, crypto.randomUUID())).resolves.toMatchObject({
      affected: 0,
    });
    expect(warnings).toEqual(['job queue stopped: a late job update was dropped']);
  });
});
