import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { worklistSchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { worklistOf } from './worklist.service.js';

export function worklistRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/user/worklist',
    {
      schema: {
        summary: "The radiologist's paid second-opinion requests, waiting ones first",
        tags: ['Payments'],
        response: { 200: worklistSchema },
      },
      preHandler: requireUser('RADIOLOGIST'),
    },
    (request) => worklistOf(ctx, currentUser(request), request.ip),
  );
}
