import type { FastifyInstance, FastifySchema } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ERROR_BODIES,
  profileResponseSchema,
  successSchema,
  updateEmailBodySchema,
  updateEmailResponseSchema,
  updateProfileBodySchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { perUserRateLimit } from '../../plugins/rate-limit.js';
import { changeEmail } from '../identity/index.js';
import { PUBLIC_PICTURES_PATH } from './profile-picture.js';
import * as profiles from './profile.service.js';
import { nonJsonResponse } from '../../plugins/api-docs.js';

const TAGS = ['Profile'];

const pictureSchema: FastifySchema = {
  summary: "A physician's or radiologist's public picture",
  tags: TAGS,
  params: z.object({ file: z.string().describe('<picture uid>.webp') }),
  response: {
    200: nonJsonResponse('The 100×100 crop, cached for a year (a new picture gets a new URL).', [
      'image/webp',
    ]),
  },
};

const PICTURE_FILE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.webp$/;

export function profileRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/user/profile',
    {
      schema: {
        summary: "The caller's profile and care team",
        tags: TAGS,
        response: { 200: profileResponseSchema },
      },
      preHandler: requireUser(),
    },
    (request) => profiles.getProfile(ctx, currentUser(request), request.ip),
  );

  r.put(
    '/api/user/profile',
    {
      schema: {
        summary: "Change the caller's picture, bio or rating preference",
        tags: TAGS,
        body: updateProfileBodySchema,
        response: { 200: successSchema },
      },
      preHandler: requireUser(),
    },
    async (request) => {
      await profiles.updateProfile(ctx, currentUser(request), request.body, request.ip);
      return { success: true as const };
    },
  );

  r.put(
    '/api/user/email',
    {
      schema: {
        summary: "Change the caller's email address (confirmed by a link)",
        tags: TAGS,
        body: updateEmailBodySchema,
        response: { 200: updateEmailResponseSchema },
      },
      // Radiologists' addresses are managed by the operators who created their accounts.
      preHandler: [requireUser('PATIENT', 'PHYSICIAN'), perUserRateLimit(app, ctx.config, 'email-change')],
    },
    async (request) => {
      await changeEmail(ctx, currentUser(request), request.body);
      return { success: true as const, pending: true as const };
    },
  );

  // Public: physicians and radiologists present themselves to patients with these pictures.
  app.get<{ Params: { file: string } }>(
    `${PUBLIC_PICTURES_PATH}:file`,
    { schema: pictureSchema },
    async (request, reply) => {
      const pictureId = PICTURE_FILE.exec(request.params.file)?.[1];
      const key = pictureId ? await profiles.findPublicPictureCrop(ctx, pictureId) : undefined;
      const stored = key ? await ctx.storage.stat(key) : undefined;
      if (!key || !stored) {
        return reply.status(404).send(ERROR_BODIES.notFound);
      }
      // The URL names one picture forever (a new picture gets a new URL), so caches may keep it.
      void reply
        .header('Content-Type', 'image/webp')
        .header('Content-Length', stored.size)
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('Cross-Origin-Resource-Policy', 'same-origin');
      return reply.send(await ctx.storage.read(key));
    },
  );
}
