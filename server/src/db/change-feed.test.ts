import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Readable, Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { soon } from '../../test/soon.js';
import { bearer, createPatient, signIn } from '../../test/factories.js';
import { runAdminCommand } from '../cli/admin-commands.js';
import { notify } from '../modules/notifications/notifications.service.js';
import { announceChange, ChangeFeed } from './change-feed.js';

/*
 * Every in-process cache must follow changes made elsewhere at once: by the admin CLI, or by
 * another instance on the same PostgreSQL. On PGlite the messages loop back within the process;
 * the cross-process cases need PostgreSQL (the server suite runs there too in CI).
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const serverDir = path.resolve(import.meta.dirname, '..', '..');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const silent = () => new Writable({ write: (_chunk, _encoding, done) => done() });

async function hospitalNames(app: TestApp, headers: Record<string, string> = {}): Promise<string[]> {
  const response = await app.app.inject({ method: 'GET', url: '/api/hospital/hospitals', headers });
  return response.json<{ hospitals: { name: string }[] }>().hospitals.map((hospital) => hospital.name);
}

describe('the hospital list a running server caches', () => {
  it('shows a hospital added by an admin command at once, and its ETag changes', async () => {
    const before = await t.app.inject({ method: 'GET', url: '/api/hospital/hospitals' });
    expect(before.json().hospitals.map((h: { name: string }) => h.name)).not.toContain('Feed General');
    await runAdminCommand(t.database.db, ['add-hospital', '--name', 'Feed General'], {
      stdin: Readable.from([]),
      stderr: silent(),
    });
    expect(await soon(async () => (await hospitalNames(t)).includes('Feed General'))).toBe(true);
    const stale = await t.app.inject({
      method: 'GET',
      url: '/api/hospital/hospitals',
      headers: { 'if-none-match': before.headers.etag as string },
    });
    expect(stale.statusCode).toBe(200);
  });

  it.runIf(onPostgres)(
    'shows a hospital added with `npm run admin -- add-hospital` in another process at once',
    async () => {
      expect(await hospitalNames(t)).not.toContain('Cli Memorial');
      await promisify(execFile)(
        'npx',
        ['tsx', 'src/cli/admin.ts', 'add-hospital', '--name', 'Cli Memorial'],
        {
          cwd: serverDir,
          env: { ...process.env, DATABASE_URL: t.databaseUrl },
        },
      );
      expect(await soon(async () => (await hospitalNames(t)).includes('Cli Memorial'))).toBe(true);
    },
    60_000,
  );
});

describe('catching up with the feed', () => {
  it('resolves only once every change committed before it has been heard', async () => {
    const feed = new ChangeFeed();
    await feed.start(t.database);
    const heard: string[] = [];
    feed.on('archive', (keys) => heard.push(...(keys ?? ['everything'])));
    try {
      for (let round = 0; round < 20; round += 1) {
        await announceChange(t.database.db, 'archive', [`round-${round}`]);
        await feed.catchUp(t.database.db);
        expect(heard).toContain(`round-${round}`);
      }
    } finally {
      await feed.close();
    }
  });

  it.skipIf(onPostgres)(
    'on the embedded database, has heard a change once its commit resolved, and sends no marker',
    async () => {
      const feed = new ChangeFeed();
      await feed.start(t.database);
      const heard: string[] = [];
      feed.on('archive', (keys) => heard.push(...(keys ?? ['everything'])));
      try {
        for (let round = 0; round < 5; round += 1) {
          await t.database.db.transaction(async (tx) => {
            await announceChange(tx, 'archive', [`committed-${round}`]);
          });
          expect(heard).toContain(`committed-${round}`);
        }
        await announceChange(t.database.db, 'archive', ['autocommitted']);
        expect(heard).toContain('autocommitted');
        // Catching up asks the database nothing (a statement here would fail and drop everything).
        const noDatabase = {
          execute: () => Promise.reject(new Error('no statement expected')),
        } as unknown as typeof t.database.db;
        await feed.catchUp(noDatabase);
        expect(heard).not.toContain('everything');
      } finally {
        await feed.close();
      }
    },
  );

  it('every request that may write waits for it before answering; reads do not', async () => {
    const catchUp = vi.spyOn(ChangeFeed.prototype, 'catchUp');
    try {
      await t.app.inject({ method: 'GET', url: '/api/hospital/hospitals' });
      expect(catchUp).not.toHaveBeenCalled();
      // Refused or not, a request that could have written is answered after the feed caught up.
      await t.app.inject({ method: 'POST', url: '/api/user/upload-image', payload: {} });
      expect(catchUp).toHaveBeenCalledTimes(1);
    } finally {
      catchUp.mockRestore();
    }
  });
});

describe.runIf(onPostgres)('two instances on one PostgreSQL', () => {
  let other: TestApp;
  beforeAll(async () => {
    other = await createTestApp({}, { besides: t });
  });
  afterAll(() => other.close());

  it('a sign-out on one instance ends the session on the other at once', async () => {
    const patient = await createPatient(t.database.db);
    const session = await signIn(t.app, patient.email);
    const me = () => t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(session.token) });
    expect((await me()).statusCode).toBe(200);
    const signOut = await other.app.inject({
      method: 'POST',
      url: '/api/auth/signout',
      headers: { cookie: session.cookie },
    });
    expect(signOut.statusCode).toBeLessThan(300);
    expect(await soon(async () => (await me()).statusCode === 401)).toBe(true);
  });

  it("a notification written by one instance changes the other's polling answer at once", async () => {
    const patient = await createPatient(t.database.db);
    const { token } = await signIn(t.app, patient.email);
    const poll = (etag?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/notification/polling',
        headers: { ...bearer(token), ...(etag ? { 'if-none-match': etag } : {}) },
      });
    await notify(t.database.db, { userId: patient.id, message: 'First', to: null });
    const first = await poll();
    const etag = first.headers.etag as string;
    expect((await poll(etag)).statusCode).toBe(304);
    await notify(other.database.db, { userId: patient.id, message: 'From the other instance', to: null });
    expect(await soon(async () => (await poll(etag)).statusCode === 200)).toBe(true);
    // The list itself, asked for without an ETag, is not an old copy either.
    const messages = (await poll()).json<{ message: string }[]>().map((item) => item.message);
    expect(messages).toContain('From the other instance');
  });

  it('a hospital added through the other instance is listed at once', async () => {
    expect(await hospitalNames(t)).not.toContain('Second Instance Clinic');
    await runAdminCommand(other.database.db, ['add-hospital', '--name', 'Second Instance Clinic'], {
      stdin: Readable.from([]),
      stderr: silent(),
    });
    expect(await soon(async () => (await hospitalNames(t)).includes('Second Instance Clinic'))).toBe(true);
  });

  it('a lost listening connection makes caches read the database until it is back', async () => {
    expect(await hospitalNames(t)).not.toContain('While Deaf Hospital');
    // Ends both instances' listening connections, so the next message is missed.
    await t.database.executeSql(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = current_database() and query like 'listen %'`,
      [],
    );
    await runAdminCommand(other.database.db, ['add-hospital', '--name', 'While Deaf Hospital'], {
      stdin: Readable.from([]),
      stderr: silent(),
    });
    // Sooner than the reconnection (a second later): the caches stopped trusting themselves.
    expect(await soon(async () => (await hospitalNames(t)).includes('While Deaf Hospital'), 300)).toBe(true);
  });
});
