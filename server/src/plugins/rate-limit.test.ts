import crypto from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { bearer, createPhysician, signIn, uniqueEmail } from '../../test/factories.js';

/**
 * Rate limits counted in Redis (REDIS_URL) by several instances. Runs where TEST_REDIS_URL names
 * a Redis (`.ci/run` sets it); on PostgreSQL (TEST_DATABASE_URL) the two instances also share one
 * database, on PGlite each has its own, which the limits do not read.
 */
const redisUrl = process.env.TEST_REDIS_URL;
const PER_IP = 4;

/** Every run writes its own keys: several test runs (or deployments) can share one Redis. */
function settings(url: string, prefix: string): Record<string, string> {
  return {
    REDIS_URL: url,
    RATE_LIMIT_PREFIX: prefix,
    AUTH_RATE_LIMIT_PER_IP: String(PER_IP),
    AUTH_RATE_LIMIT_PER_EMAIL: '1000',
  };
}

const signin = (t: TestApp, email = uniqueEmail('nobody')) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { email, password: 'not the password' },
    remoteAddress: '203.0.113.9',
  });

describe.runIf(redisUrl)('rate limits in Redis, shared by two instances (needs TEST_REDIS_URL)', () => {
  const prefix = `ra-test:${crypto.randomBytes(6).toString('hex')}:`;
  let a: TestApp;
  let b: TestApp;
  let redis: Redis;
  beforeAll(async () => {
    a = await createTestApp(settings(redisUrl!, prefix));
    b = await createTestApp(settings(redisUrl!, prefix), process.env.TEST_DATABASE_URL ? { besides: a } : {});
    redis = new Redis(redisUrl!);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) {
      await redis.del(...keys);
    }
    redis.disconnect();
    await b?.close();
    await a?.close();
  });

  it('allows N sign-in attempts a minute per IP across both instances, not N on each', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < PER_IP * 2; i++) {
      // Round robin, as a load balancer without sticky sessions sends them.
      statuses.push((await signin(i % 2 === 0 ? a : b)).statusCode);
    }
    expect(statuses.slice(0, PER_IP)).toEqual(Array(PER_IP).fill(401));
    expect(statuses.slice(PER_IP)).toEqual(Array(PER_IP).fill(429));
    // The counters are under this deployment's prefix, and no address is written in clear.
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.join(' ')).not.toContain('203.0.113.9');
  });

  it('keeps the limits of different routes apart', async () => {
    const portal = await a.app.inject({
      method: 'POST',
      url: '/api/auth/portal/patient',
      payload: { email: uniqueEmail() },
      remoteAddress: '203.0.113.9',
    });
    // The same IP is over the sign-in limit, not over the portal's.
    expect(portal.statusCode).not.toBe(429);
  });
});

describe.runIf(redisUrl)('when Redis cannot be reached (needs TEST_REDIS_URL)', () => {
  it('refuses to start with REDIS_URL set and nothing answering', async () => {
    const closed = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    await expect(createTestApp({ REDIS_URL: `redis://127.0.0.1:${closed}` })).rejects.toThrow(
      /REDIS_URL is set but Redis cannot be reached/,
    );
  });

  it('answers sign-in 503 (never unlimited) and lets DICOMweb reads through while Redis is down', async () => {
    // Redis behind a relay this test can cut, as a network failure would.
    const target = new URL(redisUrl!);
    const sockets = new Set<net.Socket>();
    let isCut = false;
    const relay = net.createServer((client) => {
      if (isCut) {
        client.destroy();
        return;
      }
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => sockets.delete(socket));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const { port } = relay.address() as net.AddressInfo;
    const prefix = `ra-test:${crypto.randomBytes(6).toString('hex')}:`;
    const t = await createTestApp(settings(`redis://127.0.0.1:${port}`, prefix));
    try {
      expect((await signin(t)).statusCode).toBe(401);
      const physician = await createPhysician(t.database.db);
      const { token } = await signIn(t.app, physician.email);
      isCut = true;
      sockets.forEach((socket) => socket.destroy());
      const refused = await signin(t);
      expect(refused.statusCode).toBe(503);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // DICOMweb's limits share capacity and guard no secret: they let requests through.
      const qido = await t.app.inject({ method: 'GET', url: '/dicomweb/studies', headers: bearer(token) });
      expect(qido.statusCode).toBe(200);
    } finally {
      await t.close();
      relay.close();
    }
  });
});
