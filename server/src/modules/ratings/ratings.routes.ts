import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { rateBodySchema, rateResponseSchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { rateRadiologist } from './ratings.service.js';

export function ratingsRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/api/user/rate',
    {
      schema: {
        summary: "Rate a radiologist who has reviewed the caller's images",
        tags: ['Ratings'],
        body: rateBodySchema,
        response: { 200: rateResponseSchema },
      },
      preHandler: requireUser('PATIENT'),
    },
    async (request) => ({
      success: true as const,
      msg: await rateRadiologist(ctx, currentUser(request), request.body.uid, request.body.rating),
    }),
  );
}
