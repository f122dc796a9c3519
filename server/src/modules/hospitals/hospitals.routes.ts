import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hospitalListSchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { PUBLIC_LIST_CACHE } from '../../plugins/security.js';
import * as hospitals from './hospitals.service.js';
import { replyIfNotModified } from '../../lib/not-modified.js';
import { emptyResponse } from '../../plugins/api-docs.js';

export function hospitalsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/hospital/hospitals',
    {
      schema: {
        summary: 'List the hospitals',
        tags: ['Hospitals'],
        response: { 200: hospitalListSchema, 304: emptyResponse('The list has not changed (ETag).') },
      },
    },
    async (request, reply) => {
      const list = (await ctx.hospitalCache.getOrLoad('all', () => hospitals.listHospitalsTagged(ctx.db)))!;
      void reply.header('Cache-Control', PUBLIC_LIST_CACHE).header('ETag', list.etag);
      return replyIfNotModified(request, reply, list.etag) ?? { hospitals: list.hospitals };
    },
  );
}
