import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ERRORS } from '@tus/server';
import { RedisUploadLocker } from './redis-upload-locker.js';

/**
 * The upload lock two instances share through Redis: each "instance" here is a locker on its own
 * connection, as two processes would have. Runs where TEST_REDIS_URL names a Redis (`.ci/run`).
 */
const redisUrl = process.env.TEST_REDIS_URL;

describe.runIf(redisUrl)('RedisUploadLocker (needs TEST_REDIS_URL)', () => {
  const prefix = `ra-test:${crypto.randomBytes(6).toString('hex')}:`;
  let one: Redis;
  let other: Redis;
  let first: RedisUploadLocker;
  let second: RedisUploadLocker;
  beforeAll(() => {
    one = new Redis(redisUrl!);
    other = new Redis(redisUrl!);
    first = new RedisUploadLocker(one, prefix);
    second = new RedisUploadLocker(other, prefix);
  });
  afterAll(async () => {
    const keys = await one.keys(`${prefix}*`);
    if (keys.length > 0) {
      await one.del(...keys);
    }
    one.disconnect();
    other.disconnect();
  });

  it('makes a request on the other instance wait, and asks the holder to let go', async () => {
    const id = crypto.randomUUID();
    const held = first.newLock(id);
    let asked = 0;
    await held.lock(new AbortController().signal, () => {
      asked += 1;
    });

    const waiter = second.newLock(id);
    let acquiredAt = 0;
    const waiting = waiter
      .lock(new AbortController().signal, () => undefined)
      .then(() => {
        acquiredAt = Date.now();
      });
    // The holder hears of the waiter at its next renewal (each second), and lets go.
    await expect.poll(() => asked, { timeout: 3_000 }).toBeGreaterThan(0);
    expect(acquiredAt).toBe(0);
    const releasedAt = Date.now();
    await held.unlock();
    await waiting;
    expect(acquiredAt).toBeGreaterThanOrEqual(releasedAt);
    await waiter.unlock();
    expect(await one.exists(`${prefix}upload-lock:${id}`)).toBe(0);
  });

  it('frees an upload whose holder died once its lease runs out', async () => {
    const id = crypto.randomUUID();
    // What a dead instance leaves: its token, no longer renewed (a short lease, to keep this quick).
    await one.set(`${prefix}upload-lock:${id}`, 'a-dead-instance', 'PX', 400);
    const started = Date.now();
    const lock = second.newLock(id);
    await lock.lock(new AbortController().signal, () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await lock.unlock();
  });

  it('lets a request that ends while it waits go, and never unlocks what another holds', async () => {
    const id = crypto.randomUUID();
    const held = first.newLock(id);
    await held.lock(new AbortController().signal, () => undefined);

    const ended = new AbortController();
    const waiting = second.newLock(id).lock(ended.signal, () => undefined);
    setTimeout(() => ended.abort(), 200);
    await expect(waiting).rejects.toMatchObject(ERRORS.ABORTED);

    // A lock that never got the upload unlocks nothing.
    await second.newLock(id).unlock();
    expect(await one.get(`${prefix}upload-lock:${id}`)).not.toBeNull();
    await held.unlock();
    expect(await one.get(`${prefix}upload-lock:${id}`)).toBeNull();
  });
});
