import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { reportedAnnotationsResponseSchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { listReportedAnnotations } from './reported-annotations.service.js';

// A malformed item uid names nothing and answers 404 from the access check, like the annotations.
const itemParams = z.object({ uid: z.string() });

/** The measurements of the Structured Reports found in a study (docs/api.md §15.4), read-only. */
export function reportsRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/image/:uid/reported-annotations',
    {
      schema: {
        summary: "The measurements of the study's Structured Reports, for the viewer to show read-only",
        tags: ['Annotations'],
        params: itemParams,
        response: { 200: reportedAnnotationsResponseSchema },
      },
      preHandler: requireUser(),
    },
    async (request) => ({
      reports: await listReportedAnnotations(ctx, currentUser(request), request.params.uid, request.ip),
    }),
  );
}
