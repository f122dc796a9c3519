import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  authResponseSchema,
  portalBodySchema,
  resetConfirmBodySchema,
  resetRequestBodySchema,
  ROLE_NAMES,
  signinBodySchema,
  signinResponseSchema,
  signupBodySchema,
  signupResponseSchema,
  successSchema,
  verifyEmailBodySchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { accountRateLimit, credentialRateLimits, perUserRateLimit } from '../../plugins/rate-limit.js';
import { mfaRoutes } from './mfa.routes.js';
import * as identity from './identity.service.js';
import { refreshSession } from './session.service.js';
import { resendEmailConfirmation, useEmailLink } from './email-verification.service.js';
import { currentUser, optionalUser, type RequireUser } from '../../plugins/auth.js';
import { emptyResponse, SESSION_COOKIE_SECURITY } from '../../plugins/api-docs.js';

const SESSION_COOKIE = 'ra_session';
const COOKIE_PATH = '/api/auth';

function setSessionCookie(reply: FastifyReply, secret: string): void {
  void reply.setCookie(SESSION_COOKIE, secret, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'strict',
    secure: reply.request.protocol === 'https',
    maxAge: identity.SESSION_DAYS * 24 * 3600,
  });
}

const TAGS = ['Identity'];

/** Confirmation emails a signed-in user may ask for again, per 15 minutes. */
const RESEND_PER_QUARTER_HOUR = 3;

export function identityRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Wrong passwords and wrong second-factor codes count against one limit per account.
  const signInAttempts = accountRateLimit(app, ctx.config, 'signin');
  mfaRoutes(app, ctx, requireUser, signInAttempts, setSessionCookie);

  r.post(
    '/api/auth/signup',
    {
      schema: {
        summary: 'Sign up as a patient or a physician',
        tags: TAGS,
        body: signupBodySchema,
        response: { 201: signupResponseSchema },
      },
      preHandler: credentialRateLimits(app, ctx.config, 'signup'),
    },
    async (request, reply) => {
      const msg = await identity.signUp(ctx, request.body);
      return reply.status(201).send({ msg });
    },
  );

  r.post(
    '/api/auth/signin',
    {
      schema: {
        summary: 'Sign in',
        description:
          'Answers an access token, or a two-factor challenge when the account has two-factor sign-in.',
        tags: TAGS,
        body: signinBodySchema,
        response: { 200: signinResponseSchema },
      },
      preHandler: credentialRateLimits(app, ctx.config, 'signin', signInAttempts),
    },
    async (request, reply) => {
      const outcome = await identity.signIn(ctx, request.body);
      if ('challenge' in outcome) {
        return outcome.challenge;
      }
      if (outcome.cookieSecret) {
        setSessionCookie(reply, outcome.cookieSecret);
      }
      return outcome.auth;
    },
  );

  r.post(
    '/api/auth/refresh',
    {
      schema: {
        summary: 'Refresh the access token with the session cookie',
        tags: TAGS,
        security: SESSION_COOKIE_SECURITY,
        response: { 200: authResponseSchema },
      },
    },
    async (request, reply) => {
      const { auth, cookieSecret } = await refreshSession(ctx, request.cookies[SESSION_COOKIE]);
      if (cookieSecret) {
        setSessionCookie(reply, cookieSecret);
      }
      return auth;
    },
  );

  r.post(
    '/api/auth/signout',
    {
      schema: {
        summary: 'Sign out: end the session of the cookie',
        tags: TAGS,
        security: SESSION_COOKIE_SECURITY,
        response: { 204: emptyResponse('Signed out; the session cookie is cleared.') },
      },
    },
    async (request, reply) => {
      await identity.signOut(ctx, request.cookies[SESSION_COOKIE]);
      void reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH });
      return reply.status(204).send();
    },
  );

  r.post(
    '/api/auth/verify-email',
    {
      schema: {
        summary: 'Use an email link: confirm, change or keep an address',
        tags: TAGS,
        body: verifyEmailBodySchema,
        response: { 200: successSchema },
      },
      preHandler: credentialRateLimits(app, ctx.config, 'verify-email'),
    },
    async (request) => {
      // Signed in here too? That browser stays signed in after an email change; all others end.
      const keepSessionId = (await optionalUser(ctx, request))?.sessionId;
      const outcome = await useEmailLink(ctx, request.body.token, { keepSessionId, ip: request.ip });
      await identity.forgetSessions(ctx, outcome.revoked);
      // Sessions carry whether the address is confirmed: the next request must see the change.
      await identity.forgetUserSessions(ctx, outcome.userId);
      return { success: true as const };
    },
  );

  r.post(
    '/api/auth/verify-email/resend',
    {
      schema: { summary: 'Send the confirmation email again', tags: TAGS, response: { 200: successSchema } },
      preHandler: [
        requireUser(),
        perUserRateLimit(app, ctx.config, 'resend-confirmation', {
          max: RESEND_PER_QUARTER_HOUR,
          timeWindow: '15 minutes',
        }),
      ],
    },
    async (request) => {
      await resendEmailConfirmation(ctx, currentUser(request).id);
      return { success: true as const };
    },
  );

  r.post(
    '/api/auth/portal/:role',
    {
      schema: {
        summary: "Check that an address may use a role's sign-in page",
        tags: TAGS,
        params: z.object({ role: z.string() }),
        body: portalBodySchema,
        response: { 200: successSchema },
      },
      preHandler: credentialRateLimits(app, ctx.config, 'portal'),
    },
    async (request) => {
      const role = ROLE_NAMES.find((name) => name.toLowerCase() === request.params.role.toLowerCase());
      await identity.checkPortal(ctx, role, request.body.email);
      return { success: true as const };
    },
  );

  r.post(
    '/api/auth/reset-password',
    {
      schema: {
        summary: 'Ask for a password reset link',
        tags: TAGS,
        body: resetRequestBodySchema,
        response: { 200: successSchema },
      },
      preHandler: credentialRateLimits(app, ctx.config, 'reset-password'),
    },
    async (request) => {
      await identity.requestPasswordReset(ctx, request.body.email);
      return { success: true as const };
    },
  );

  r.post(
    '/api/auth/reset-password/confirm',
    {
      schema: {
        summary: 'Choose a new password with a reset link',
        tags: TAGS,
        body: resetConfirmBodySchema,
        response: { 200: successSchema },
      },
      preHandler: credentialRateLimits(app, ctx.config, 'reset-password-confirm'),
    },
    async (request) => {
      await identity.confirmPasswordReset(ctx, request.body.token, request.body.password);
      return { success: true as const };
    },
  );
}
