import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Role } from '@ra/shared';
import { AppError } from '../lib/errors.js';
import type { AppContext } from '../context.js';
import { findUserOfLiveSession } from '../modules/identity/identity.repository.js';

export interface AuthUser {
  id: string;
  email: string;
  role: Role;
  title: string;
  firstName: string;
  lastName: string;
  /** Unverified accounts see no patient data (access.policy.ts). */
  emailVerified: boolean;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireUser`; routes without that guard never read it. */
    user: AuthUser | null;
  }
}

const BEARER = /^Bearer ([A-Za-z0-9_\-.]+)$/;

/**
 * Returns a preHandler that admits a signed-in user, and only with one of `roles` when given.
 * A revoked session stops working at once on this instance and within the session cache's
 * lifetime (seconds) on others.
 */
export function createAuthGuard(app: FastifyInstance, ctx: AppContext) {
  app.decorateRequest('user', null);

  return function requireUser(...roles: Role[]): preHandlerAsyncHookHandler {
    return async function guard(request: FastifyRequest, _reply: FastifyReply) {
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
      if (roles.length > 0 && !roles.includes(user.role)) {
        throw new AppError('FORBIDDEN');
      }
      request.user = { ...user, sessionId: claims.sessionId };
    };
  };
}

export type RequireUser = ReturnType<typeof createAuthGuard>;

/** The signed-in user of a route guarded by `requireUser`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) {
    throw new AppError('UNAUTHENTICATED');
  }
  return request.user;
}
