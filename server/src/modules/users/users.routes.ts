import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { meetRadiologistListSchema, meSchema, radiologistListSchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { toMe } from '../identity/index.js';
import * as users from './users.service.js';

const TAGS = ['Users'];

export function usersRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/user/me',
    {
      schema: { summary: 'The signed-in user', tags: TAGS, response: { 200: meSchema } },
      preHandler: requireUser(),
    },
    (request) => toMe(currentUser(request)),
  );

  r.get(
    '/api/user/meet-our-radiologists',
    {
      schema: {
        summary: 'The radiologists presented on the home page',
        tags: TAGS,
        response: { 200: meetRadiologistListSchema },
      },
    },
    async () => ({ radiologists: await users.listMeetOurRadiologists(ctx) }),
  );

  r.get(
    '/api/user/radiologists',
    {
      schema: {
        summary: 'The radiologists, with fees and ratings',
        tags: TAGS,
        response: { 200: radiologistListSchema },
      },
    },
    // Not cacheable: a new rating or profile change must show at once (the default no-store).
    async () => ({ radiologists: await users.listRadiologists(ctx) }),
  );
}
