import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Config } from '../config.js';
import { AppError } from '../lib/errors.js';

export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  // Not global: only the routes that guard credentials opt in.
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      code: 'TOO_MANY_REQUESTS',
    }),
  });
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
  charge(request: FastifyRequest, email: string): Promise<void>;
}

export function accountRateLimit(app: FastifyInstance, config: Config): AccountRateLimit {
  // The plugin runs one of its own handlers per request, so this limit is applied by hand.
  const check = app.createRateLimit({
    max: config.rateLimit.perEmail,
    timeWindow: '1 minute',
    keyGenerator: emailOf,
    allowList: (request) => emailOf(request) === '',
  });
  async function enforce(request: FastifyRequest) {
    const result = await check(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new AppError('TOO_MANY_REQUESTS');
    }
  }
  return {
    preHandler: enforce,
    async charge(request, email) {
      accountOfRequest.set(request, email);
      await enforce(request);
    },
  };
}

/**
 * Two limits for one credential route: per client IP, and per email address so that one account
 * cannot be guessed at from many IPs. Each call makes its own counters unless a per-account
 * counter is shared in (sign-in and its second factor count together).
 */
export function credentialRateLimits(
  app: FastifyInstance,
  config: Config,
  perAccount: AccountRateLimit = accountRateLimit(app, config),
): preHandlerAsyncHookHandler[] {
  const perIp = app.rateLimit({ max: config.rateLimit.perIp, timeWindow: '1 minute', hook: 'preHandler' });
  return [perIp, perAccount.preHandler];
}

/** A limit per signed-in user, for routes that re-check a password (place it after `requireUser`). */
export function perUserRateLimit(app: FastifyInstance, config: Config): preHandlerAsyncHookHandler {
  return app.rateLimit({
    max: config.rateLimit.perEmail,
    timeWindow: '1 minute',
    hook: 'preHandler',
    keyGenerator: (request) => request.user?.id ?? request.ip,
  });
}

/**
 * DICOMweb's per-user limits (docs/security.md §8): reads (QIDO-RS, WADO-RS) and writes (STOW-RS)
 * counted apart, each per minute; over a limit, 429 with Retry-After. Place after `requireUser`.
 */
export function dicomwebRateLimits(
  app: FastifyInstance,
  config: Config,
): { read: preHandlerAsyncHookHandler; write: preHandlerAsyncHookHandler } {
  const perUser = (kind: string, max: number) =>
    app.rateLimit({
      max,
      timeWindow: '1 minute',
      hook: 'preHandler',
      keyGenerator: (request) => `dicomweb-${kind}:${request.user?.id ?? request.ip}`,
    });
  return {
    read: perUser('read', config.rateLimit.dicomwebReads),
    write: perUser('write', config.rateLimit.dicomwebWrites),
  };
}
