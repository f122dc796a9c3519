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

function emailOf(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined;
  return typeof body?.email === 'string' ? body.email.trim().toLowerCase() : '';
}

/**
 * Two limits for one credential route: per client IP, and per email address so that one account
 * cannot be guessed at from many IPs. Each call makes its own counters (one pair per route).
 */
export function credentialRateLimits(app: FastifyInstance, config: Config): preHandlerAsyncHookHandler[] {
  const perIp = app.rateLimit({ max: config.rateLimit.perIp, timeWindow: '1 minute', hook: 'preHandler' });
  // The plugin runs one of its own handlers per request, so the second limit is applied by hand.
  const checkEmail = app.createRateLimit({
    max: config.rateLimit.perEmail,
    timeWindow: '1 minute',
    keyGenerator: emailOf,
    allowList: (request) => emailOf(request) === '',
  });
  const perEmail: preHandlerAsyncHookHandler = async (request) => {
    const result = await checkEmail(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new AppError('TOO_MANY_REQUESTS');
    }
  };
  return [perIp, perEmail];
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
