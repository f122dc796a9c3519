import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { Config } from '../config.js';
import { AppError, Refusal } from '../lib/errors.js';
import type { Redis } from 'ioredis';

export { connectRateLimitRedis } from './rate-limit-redis.js';

/**
 * Rate limits (docs/security.md §8). Every limit here has a name, and its counters are keyed by
 * that name and a hash of what is counted (an IP, an email, a user id): in one process's memory by
 * default, or in Redis with REDIS_URL, where every instance counts into the same keys
 * (`RATE_LIMIT_PREFIX` + the plugin's infix + `<name>:<hash>`), so N instances allow N requests,
 * not N per instance. Hashing keeps addresses and emails out of Redis.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  config: Config,
  /** The counters' Redis (`connectRateLimitRedis`), closed with the app; none: this process's memory. */
  redis: Redis | undefined,
): Promise<void> {
  if (redis) {
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  }
  // Not global: only the limits below are applied, each by hand (`limiter`).
  await app.register(rateLimit, {
    global: false,
    ...(redis && { redis, nameSpace: config.rateLimit.prefix }),
  });
}

/**
 * What a limit does when its counters cannot be read (Redis down or too slow):
 * - `refuse` (credentials, codes, password checks): 503 with Retry-After. An attacker who can
 *   take Redis down must not win unlimited guesses; signing in waits for Redis instead.
 * - `allow` (DICOMweb throughput): the request goes through. These limits share capacity fairly
 *   and guard no secret, so an outage costs fairness, not safety, and viewers keep working.
 * Either way the failure is logged.
 */
type WhenStoreDown = 'refuse' | 'allow';

/** Seconds a client is asked to wait when a limit cannot be checked. */
const STORE_DOWN_RETRY_SECONDS = 30;

interface LimitSpec {
  /** Unique among the limits: the counters of two limits never mix. */
  name: string;
  max: number;
  timeWindow: string;
  /** What is counted; '' counts nothing (the request passes this limit). */
  key: (request: FastifyRequest) => string;
  whenStoreDown: WhenStoreDown;
}

function hashed(value: string): string {
  return crypto.createHash('sha256').update(value).digest('base64url').slice(0, 32);
}

/** The client's address as counted: IPv6 clients by their /64, as the plugin does. */
function ipOf(request: FastifyRequest): string {
  return normalizeIP(request.ip);
}

/** A limit as a function that counts one request and throws the contract's 429 past the limit. */
function limiter(app: FastifyInstance, spec: LimitSpec) {
  const check = app.createRateLimit({
    max: spec.max,
    timeWindow: spec.timeWindow,
    keyGenerator: (request) => `${spec.name}:${hashed(spec.key(request))}`,
    allowList: (request) => spec.key(request) === '',
  });
  return async function enforce(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    let result: Awaited<ReturnType<typeof check>>;
    try {
      result = await check(request);
    } catch (err) {
      request.log.warn(
        { err, limit: spec.name },
        `rate limit not checked (store unreachable): ${spec.whenStoreDown}`,
      );
      if (spec.whenStoreDown === 'allow') {
        return;
      }
      void reply.header('retry-after', String(STORE_DOWN_RETRY_SECONDS));
      throw new Refusal(503, 'This is unavailable for a moment. Please try again shortly.');
    }
    if (!result.isAllowed && result.isExceeded) {
      void reply.header('retry-after', String(Math.max(1, result.ttlInSeconds)));
      throw new AppError('TOO_MANY_REQUESTS');
    }
  };
}

/** The account a request counts against when it names none in its body (a two-factor code). */
const accountOfRequest = new WeakMap<FastifyRequest, string>();

function emailOf(request: FastifyRequest): string {
  const named = accountOfRequest.get(request);
  if (named !== undefined) {
    return named;
  }
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
}

/** A per-account counter: the route's own requests, and attempts other routes charge to it. */
export interface AccountRateLimit {
  preHandler: preHandlerAsyncHookHandler;
  /** Counts one attempt against `email`; throws the contract's 429 once the limit is passed. */
  charge(request: FastifyRequest, reply: FastifyReply, email: string): Promise<void>;
}

/** `name` names the counter; routes that share one counter share the returned object. */
export function accountRateLimit(app: FastifyInstance, config: Config, name: string): AccountRateLimit {
  const enforce = limiter(app, {
    name: `account-${name}`,
    max: config.rateLimit.perEmail,
    timeWindow: '1 minute',
    key: emailOf,
    whenStoreDown: 'refuse',
  });
  return {
    preHandler: enforce,
    async charge(request, reply, email) {
      accountOfRequest.set(request, email);
      await enforce(request, reply);
    },
  };
}

/**
 * Two limits for one credential route: per client IP, and per email address so that one account
 * cannot be guessed at from many IPs. `name` names the route's counters; a per-account counter
 * shared in is counted under its own name (sign-in and its second factor count together).
 */
export function credentialRateLimits(
  app: FastifyInstance,
  config: Config,
  name: string,
  perAccount: AccountRateLimit = accountRateLimit(app, config, name),
): preHandlerAsyncHookHandler[] {
  const perIp = limiter(app, {
    name: `ip-${name}`,
    max: config.rateLimit.perIp,
    timeWindow: '1 minute',
    key: ipOf,
    whenStoreDown: 'refuse',
  });
  return [perIp, perAccount.preHandler];
}

/**
 * A limit per signed-in user, for routes that re-check a password or a code (place it after
 * `requireUser`); `name` names the route's counter.
 */
export function perUserRateLimit(
  app: FastifyInstance,
  config: Config,
  name: string,
  options: { max?: number; timeWindow?: string } = {},
): preHandlerAsyncHookHandler {
  return limiter(app, {
    name: `user-${name}`,
    max: options.max ?? config.rateLimit.perEmail,
    timeWindow: options.timeWindow ?? '1 minute',
    key: (request) => request.user?.id ?? ipOf(request),
    whenStoreDown: 'refuse',
  });
}

/** A limit per client IP for a public route that checks a code (a share link's access code). */
export function perIpRateLimit(
  app: FastifyInstance,
  config: Config,
  name: string,
): preHandlerAsyncHookHandler {
  return limiter(app, {
    name: `ip-${name}`,
    max: config.rateLimit.perIp,
    timeWindow: '1 minute',
    key: ipOf,
    whenStoreDown: 'refuse',
  });
}

/**
 * DICOMweb's per-user limits (docs/security.md §8): reads (QIDO-RS, WADO-RS) and writes (STOW-RS)
 * counted apart, each per minute; over a limit, 429 with Retry-After. Place after `requireUser`.
 */
export function dicomwebRateLimits(
  app: FastifyInstance,
  config: Config,
  /** Names the counters: the archive's DICOMweb, or a share link's (counted per IP). */
  name = 'dicomweb',
): { read: preHandlerAsyncHookHandler; write: preHandlerAsyncHookHandler } {
  const perUser = (kind: string, max: number) =>
    limiter(app, {
      name: `${name}-${kind}`,
      max,
      timeWindow: '1 minute',
      key: (request) => request.user?.id ?? ipOf(request),
      whenStoreDown: 'allow',
    });
  return {
    read: perUser('read', config.rateLimit.dicomwebReads),
    write: perUser('write', config.rateLimit.dicomwebWrites),
  };
}
