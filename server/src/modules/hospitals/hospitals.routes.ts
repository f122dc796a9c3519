import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hospitalListSchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { PUBLIC_LIST_CACHE } from '../../plugins/security.js';
import * as hospitals from './hospitals.service.js';

export function hospitalsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/api/hospital/hospitals',
      { schema: { response: { 200: hospitalListSchema } } },
      async (_request, reply) => {
        void reply.header('Cache-Control', PUBLIC_LIST_CACHE);
        return {
          hospitals: (await ctx.hospitalCache.getOrLoad('all', () => hospitals.listHospitals(ctx.db))) ?? [],
        };
      },
    );
}
