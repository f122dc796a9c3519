import crypto from 'node:crypto';
import { ERRORS, type Lock, type Locker, type RequestRelease } from '@tus/server';
import type { Redis } from 'ioredis';

/*
 * The lock each tus request takes on its upload, held in Redis so that it holds across instances
 * (REDIS_URL): behind a proxy without sticky sessions, a client's retried PATCH can reach another
 * instance while the first is still writing, and both must not append to the upload at once. tus's
 * own MemoryLocker only sees the requests of its own process.
 *
 * A lock is a key holding its holder's random token, with a lease the holder renews while it
 * works: a holder whose instance dies frees the upload once the lease runs out. A request that
 * finds the upload locked raises a flag; the holder sees it at its next renewal and is asked to
 * let go (tus then ends its request), as tus's own locker does within one process.
 */

/** How long a lock outlives its holder's last renewal. */
export const LEASE_MS = 5_000;
/** How often a holder renews its lease and looks for a request waiting for the upload. */
const RENEW_EVERY_MS = 1_000;
/** How often a waiting request tries again. */
const RETRY_MS = 100;
/** How long a request waits for an upload another holds before it gives up (tus's 500). */
const ACQUIRE_TIMEOUT_MS = 30_000;

/** Renews the lease if the token still holds the lock: 1 when someone waits, 0 when nobody does, -1 when lost. */
const RENEW = `
if redis.call('get', KEYS[1]) ~= ARGV[1] then return -1 end
redis.call('pexpire', KEYS[1], ARGV[2])
return redis.call('exists', KEYS[2])`;
/** Deletes the lock and its waiting flag, if the token still holds it. */
const RELEASE = `
if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end
return redis.call('del', KEYS[1], KEYS[2])`;

/** One of tus's answers (its status and body), thrown as an error tus answers with. */
function tusError(answer: { status_code: number; body: string }): Error {
  return Object.assign(new Error(answer.body), answer);
}

class RedisUploadLock implements Lock {
  private readonly token = crypto.randomBytes(16).toString('hex');
  private renewal: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly waitingKey: string,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const started = Date.now();
    for (;;) {
      if (signal.aborted) {
        throw tusError(ERRORS.ABORTED);
      }
      if ((await this.redis.set(this.key, this.token, 'PX', LEASE_MS, 'NX')) === 'OK') {
        // A flag raised for an earlier holder is not a request to this one; a waiter raises its own.
        await this.redis.del(this.waitingKey);
        this.renewal = setInterval(() => void this.renew(requestRelease), RENEW_EVERY_MS);
        this.renewal.unref();
        return;
      }
      if (Date.now() - started > ACQUIRE_TIMEOUT_MS) {
        throw tusError(ERRORS.ERR_LOCK_TIMEOUT);
      }
      await this.redis.set(this.waitingKey, '1', 'PX', LEASE_MS);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  private async renew(requestRelease: RequestRelease): Promise<void> {
    const answer = await this.redis
      .eval(RENEW, 2, this.key, this.waitingKey, this.token, LEASE_MS)
      .catch(() => 0);
    // Someone waits, or the lease ran out (Redis unreachable past it): the request lets go.
    if (answer === 1 || answer === -1) {
      await requestRelease();
    }
  }

  async unlock(): Promise<void> {
    clearInterval(this.renewal);
    this.renewal = undefined;
    await this.redis.eval(RELEASE, 2, this.key, this.waitingKey, this.token);
  }
}

/** tus's Locker on the Redis every instance shares; keys start with `prefix` (RATE_LIMIT_PREFIX). */
export class RedisUploadLocker implements Locker {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  newLock(id: string): Lock {
    const key = `${this.prefix}upload-lock:${id}`;
    return new RedisUploadLock(this.redis, key, `${key}:waiting`);
  }
}
