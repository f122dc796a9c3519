import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { MFA_REQUIRED, type Role } from '@ra/shared';
import type { Actor } from '../lib/actor.js';
import { AppError, Refusal } from '../lib/errors.js';
import type { AppContext } from '../context.js';
import { checkSessionActivity, findUserOfLiveSession } from '../modules/identity/index.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Requests the app makes on its own (polling): they do not count as user activity. */
    isBackground?: boolean;
  }
  interface FastifyRequest {
    /** Set by `requireUser`; routes without that guard never read it. */
    user: Actor | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_\-.]+)$/;

/** The user behind the request's bearer token; throws the contract's 401s when there is none. */
export async function authenticate(ctx: AppContext, request: FastifyRequest): Promise<Actor> {
  const header = request.headers.authorization;
  const match = header ? BEARER.exec(header) : null;
  if (!match) {
    throw new AppError('UNAUTHENTICATED');
  }
  const claims = await ctx.keys.verify(match[1]!);
  if (!claims) {
    throw new AppError('SESSION_EXPIRED');
  }
  const user = await ctx.sessionCache.getOrLoad(claims.sessionId, () =>
    findUserOfLiveSession(ctx.db, claims.sessionId, new Date()),
  );
  if (!user || user.id !== claims.userId) {
    throw new AppError('SESSION_EXPIRED');
  }
  const isBackground = request.routeOptions.config.isBackground === true;
  if (!(await checkSessionActivity(ctx, claims.sessionId, user, isBackground))) {
    throw new AppError('SESSION_EXPIRED');
  }
  return { ...user, sessionId: claims.sessionId };
}

/**
 * Whether the caller has two-factor sign-in on. The session cache may predate an enrolment made
 * through another instance whose announcement has not reached this one yet: before refusing, the
 * database is asked, so nobody who just enrolled is sent back to enrol.
 */
async function hasTwoFactor(ctx: AppContext, user: Actor): Promise<boolean> {
  if (user.totpEnabledAt !== null) {
    return true;
  }
  ctx.sessionCache.delete(user.sessionId);
  const fresh = await ctx.sessionCache.getOrLoad(user.sessionId, () =>
    findUserOfLiveSession(ctx.db, user.sessionId, new Date()),
  );
  return fresh !== undefined && fresh.totpEnabledAt !== null;
}

/** Routes staff may use before enrolling in two-factor sign-in when the operator requires it. */
function isReachableWithoutMfa(request: FastifyRequest): boolean {
  const url = request.routeOptions.url ?? '';
  return url.startsWith('/api/auth/') || url === '/api/user/me';
}

/** The roles each guard made by `requireUser` admits (empty: any signed-in user). */
const guardRoles = new WeakMap<object, readonly Role[]>();

/**
 * The roles a route's preHandler admits when it is a `requireUser` guard, else undefined: the API
 * reference (plugins/api-docs.ts) reads who may call a route off the guard itself.
 */
export function rolesOfGuard(handler: unknown): readonly Role[] | undefined {
  return typeof handler === 'function' ? guardRoles.get(handler) : undefined;
}

/**
 * Returns a preHandler that admits a signed-in user, and only with one of `roles` when given.
 * A revoked session stops working at once on this instance and within the session cache's
 * lifetime (seconds) on others.
 */
export function createAuthGuard(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('user', null);

  return function requireUser(...roles: Role[]): preHandlerAsyncHookHandler {
    const guard = async function guard(request: FastifyRequest, _reply: FastifyReply) {
      const user = await authenticate(ctx, request);
      if (roles.length > 0 && !roles.includes(user.role)) {
        throw new AppError('FORBIDDEN');
      }
      if (
        ctx.config.requireStaffMfa &&
        user.role !== 'PATIENT' &&
        !isReachableWithoutMfa(request) &&
        !(await hasTwoFactor(ctx, user))
      ) {
        throw new Refusal(403, MFA_REQUIRED);
      }
      request.user = user;
    };
    guardRoles.set(guard, roles);
    return guard;
  };
}

/** The caller when the request carries a valid bearer token, else null (for public routes). */
export async function optionalUser(ctx: AppContext, request: FastifyRequest): Promise<Actor | null> {
  try {
    return await authenticate(ctx, request);
  } catch {
    return null;
  }
}

export type RequireUser = ReturnType<typeof createAuthGuard>;

/** The signed-in user of a route guarded by `requireUser`. */
export function currentUser(request: FastifyRequest): Actor {
  if (!request.user) {
    throw new AppError('UNAUTHENTICATED');
  }
  return request.user;
}
