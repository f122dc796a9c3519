import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  authResponseSchema,
  mfaDisableBodySchema,
  mfaEnableBodySchema,
  mfaEnableResponseSchema,
  mfaSetupBodySchema,
  mfaSetupResponseSchema,
  mfaVerifyBodySchema,
  successSchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { credentialRateLimits, perUserRateLimit, type AccountRateLimit } from '../../plugins/rate-limit.js';
import * as mfa from './mfa.service.js';

const TAGS = ['Two-factor sign-in'];

/**
 * Two-factor sign-in (docs/api.md §6). `signInAttempts` is sign-in's own per-account limit, so
 * that guessing codes costs the same attempts as guessing passwords.
 */
export function mfaRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  requireUser: RequireUser,
  signInAttempts: AccountRateLimit,
  setSessionCookie: (reply: FastifyReply, secret: string) => void,
): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedInAndLimited = (name: string) => [requireUser(), perUserRateLimit(app, ctx.config, name)];

  r.post(
    '/api/auth/mfa/totp/setup',
    {
      schema: {
        summary: 'Start setting up two-factor sign-in: a new secret',
        tags: TAGS,
        body: mfaSetupBodySchema,
        response: { 200: mfaSetupResponseSchema },
      },
      preHandler: signedInAndLimited('mfa-setup'),
    },
    (request) => mfa.setUpTotp(ctx, currentUser(request), request.body.password),
  );

  r.post(
    '/api/auth/mfa/totp/enable',
    {
      schema: {
        summary: 'Turn two-factor sign-in on with a first code',
        tags: TAGS,
        body: mfaEnableBodySchema,
        response: { 200: mfaEnableResponseSchema },
      },
      preHandler: signedInAndLimited('mfa-enable'),
    },
    async (request) => ({
      recovery_codes: await mfa.enableTotp(ctx, currentUser(request), request.body.code),
    }),
  );

  r.post(
    '/api/auth/mfa/totp/disable',
    {
      schema: {
        summary: 'Turn two-factor sign-in off',
        tags: TAGS,
        body: mfaDisableBodySchema,
        response: { 200: successSchema },
      },
      preHandler: signedInAndLimited('mfa-disable'),
    },
    async (request) => {
      await mfa.disableTotp(ctx, currentUser(request), request.body);
      return { success: true as const };
    },
  );

  r.post(
    '/api/auth/mfa/verify',
    {
      schema: {
        summary: 'Complete a sign-in with a code or a recovery code',
        tags: TAGS,
        body: mfaVerifyBodySchema,
        response: { 200: authResponseSchema },
      },
      preHandler: credentialRateLimits(app, ctx.config, 'mfa-verify', signInAttempts),
    },
    async (request, reply) => {
      const { auth, cookieSecret } = await mfa.verifyMfa(ctx, request.body, (email) =>
        signInAttempts.charge(request, reply, email),
      );
      if (cookieSecret) {
        setSessionCookie(reply, cookieSecret);
      }
      return auth;
    },
  );
}
