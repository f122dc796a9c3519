import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

/**
 * How long a rate-limit check may wait for Redis. Past it the check fails and the limiter's own
 * policy decides (plugins/rate-limit.ts): a stalled Redis never holds requests for long.
 */
const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 3_000;

/**
 * Opens the Redis that holds every instance's rate-limit counters (REDIS_URL) and waits until it
 * answers: a server that cannot reach it at start refuses to start rather than run unprotected.
 *
 * Later outages are logged once when they start and once when they end. Commands are never queued
 * while the connection is down (`enableOfflineQueue: false`): they fail at once, so a limiter
 * answers straight away by its policy instead of holding the request until Redis returns.
 */
export async function connectRateLimitRedis(url: string, log: FastifyBaseLogger): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
  });
  let isDown = false;
  // ioredis reports every failed reconnection as an 'error' event; without a listener it would throw.
  redis.on('error', (err: Error) => {
    if (!isDown) {
      isDown = true;
      log.warn({ err }, 'rate-limit Redis unreachable: limits answer by their policy until it returns');
    }
  });
  redis.on('ready', () => {
    if (isDown) {
      isDown = false;
      log.info('rate-limit Redis reachable again');
    }
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (err) {
    redis.disconnect();
    throw new Error(`REDIS_URL is set but Redis cannot be reached: ${(err as Error).message}`);
  }
  return redis;
}
