import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { accessHistoryPageSchema, pageQuerySchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { summarizeItems } from '../archive-items/index.js';
import { listAccessHistory } from './audit.service.js';

export function auditRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/user/access-history',
    {
      schema: {
        summary: "Who accessed the caller's records, newest first",
        tags: ['Audit'],
        querystring: pageQuerySchema,
        response: { 200: accessHistoryPageSchema },
      },
      preHandler: requireUser('PATIENT'),
    },
    (request) => {
      const patient = currentUser(request);
      // archive-items writes audit rows, so it is handed in here rather than imported by the service.
      return listAccessHistory(ctx, patient, request.query, (ids) => summarizeItems(ctx, patient, ids));
    },
  );
}
