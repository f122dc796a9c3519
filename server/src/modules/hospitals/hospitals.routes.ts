import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hospitalListSchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import * as hospitals from './hospitals.service.js';

export function hospitalsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/api/hospital/hospitals', { schema: { response: { 200: hospitalListSchema } } }, async () => ({
      hospitals: (await ctx.hospitalCache.getOrLoad('all', () => hospitals.listHospitals(ctx.db))) ?? [],
    }));
}
