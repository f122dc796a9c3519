import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { createPatient } from '../test/factories.js';
import { readOutbox } from '../test/outbox.js';
import { soon } from '../test/soon.js';
import { freePort } from '../test/free-port.js';
import { loadConfig } from './config.js';

describe('the settings of several instances: ROLE, REDIS_URL, RATE_LIMIT_PREFIX', () => {
  it('is all by default, web or worker when told, and anything else stops the start', () => {
    const postgres = { DATABASE_URL: 'postgres://db.invalid/archive' };
    expect(loadConfig({}).role).toBe('all');
    expect(loadConfig({ ...postgres, ROLE: 'web' }).role).toBe('web');
    expect(loadConfig({ ...postgres, ROLE: 'worker' }).role).toBe('worker');
    expect(() => loadConfig({ ...postgres, ROLE: 'both' })).toThrow(/ROLE: must be web, worker or all/);
  });

  it('reads REDIS_URL as a redis:// or rediss:// address and RATE_LIMIT_PREFIX as a short key start', () => {
    expect(loadConfig({}).rateLimit).toMatchObject({ redisUrl: undefined, prefix: 'ra:rl:' });
    expect(
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', RATE_LIMIT_PREFIX: 'site-2:' }).rateLimit,
    ).toMatchObject({
      redisUrl: 'redis://127.0.0.1:6379',
      prefix: 'site-2:',
    });
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(
      /REDIS_URL: must start with redis:/,
    );
    expect(() => loadConfig({ RATE_LIMIT_PREFIX: 'has space' })).toThrow(/RATE_LIMIT_PREFIX/);
    expect(() => loadConfig({ RATE_LIMIT_PREFIX: '' })).toThrow(/RATE_LIMIT_PREFIX/);
  });

  it('splits work only on PostgreSQL: the embedded database serves one process', () => {
    expect(() => loadConfig({ ROLE: 'web' })).toThrow(/ROLE: web needs DATABASE_URL/);
    expect(() => loadConfig({ ROLE: 'worker' })).toThrow(/ROLE: worker needs DATABASE_URL/);
  });
});

/** Whether something accepts TCP connections on loopback at `port`. */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The send-email jobs in pg-boss's table, by state. */
async function emailJobStates(t: TestApp): Promise<string[]> {
  const { rows } = await t.database.executeSql(
    "select state from pgboss.job where name = 'send-email' order by created_on",
    [],
  );
  return (rows as { state: string }[]).map((row) => row.state);
}

describe.runIf(process.env.TEST_DATABASE_URL)(
  'a web and a worker instance on one PostgreSQL (needs TEST_DATABASE_URL: PGlite is one process)',
  () => {
    let web: TestApp;
    let worker: TestApp | undefined;
    beforeAll(async () => {
      web = await createTestApp({ ROLE: 'web' }, { jobPollingSeconds: 0.5, cronSeconds: 1 });
    });
    afterAll(async () => {
      await worker?.close();
      await web.close();
    });

    it('the web instance queues jobs, works none and schedules nothing; a worker beside it does the job', async () => {
      // No instance that works jobs has started on this database: nothing was scheduled.
      const schedules = await web.database.executeSql('select name from pgboss.schedule', []);
      expect(schedules.rows).toEqual([]);

      const patient = await createPatient(web.database.db);
      const asked = await web.app.inject({
        method: 'POST',
        url: '/api/auth/reset-password',
        payload: { email: patient.email },
      });
      expect(asked.statusCode).toBe(200);
      expect(await emailJobStates(web)).toEqual(['created']);
      // Many polling intervals later the job still waits: no worker of this instance took it.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await emailJobStates(web)).toEqual(['created']);
      expect(readOutbox(web.dataDir)).toEqual([]);

      worker = await createTestApp({ ROLE: 'worker' }, { besides: web, jobPollingSeconds: 0.5 });
      expect(await soon(async () => (await emailJobStates(web)).join() === 'completed', 10_000)).toBe(true);
      expect(readOutbox(worker.dataDir).map((mail) => mail.to)).toEqual([
        expect.stringContaining(patient.email),
      ]);
      // The worker runs the sweeps: their schedules are stored now.
      const stored = await web.database.executeSql('select name from pgboss.schedule order by name', []);
      expect((stored.rows as { name: string }[]).map((row) => row.name)).toContain('profile-picture-sweep');
    });

    it('the worker answers its health check and nothing else', async () => {
      worker ??= await createTestApp({ ROLE: 'worker' }, { besides: web });
      expect((await worker.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      const signin = await worker.app.inject({
        method: 'POST',
        url: '/api/auth/signin',
        payload: { email: 'someone@example.com', password: 'whatever' },
      });
      expect(signin.statusCode).toBe(404);
      expect((await worker.app.inject({ method: 'GET', url: '/api/hospitals' })).statusCode).toBe(404);
    });

    it('runs the DICOM node (DICOM_PORT) on a worker, never on a web instance', async () => {
      const [webPort, workerPort] = [await freePort(), await freePort()];
      const webWithPort = await createTestApp({ ROLE: 'web', DICOM_PORT: String(webPort) }, { besides: web });
      const workerWithPort = await createTestApp(
        { ROLE: 'worker', DICOM_PORT: String(workerPort) },
        { besides: web },
      );
      try {
        expect(await isListening(webPort)).toBe(false);
        expect(await isListening(workerPort)).toBe(true);
      } finally {
        await workerWithPort.close();
        await webWithPort.close();
      }
    });
  },
);
