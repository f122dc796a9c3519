import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { annotationListSchema, saveAnnotationBodySchema, saveAnnotationResponseSchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import * as annotations from './annotations.service.js';
import { emptyResponse } from '../../plugins/api-docs.js';

// A malformed item uid names nothing and answers 404 from the access check, like GET /api/image.
const itemParams = z.object({ uid: z.string() });
const annotationParams = itemParams.extend({
  annotationUid: z.uuid({ error: 'Annotation uid must be a UUID.' }),
});

const TAGS = ['Annotations'];

/** Annotations of an archive item (docs/api.md §15): every reader of the item may draw their own. */
export function annotationsRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/image/:uid/annotations',
    {
      schema: {
        summary: 'The annotations of an item that the caller may see',
        tags: TAGS,
        params: itemParams,
        response: { 200: annotationListSchema },
      },
      preHandler: requireUser(),
    },
    async (request) => ({
      annotations: await annotations.listAnnotations(
        ctx,
        currentUser(request),
        request.params.uid,
        request.ip,
      ),
    }),
  );

  r.put(
    '/api/image/:uid/annotations/:annotationUid',
    {
      schema: {
        summary: "Create or replace one of the caller's annotations (the client picks its uid)",
        tags: TAGS,
        params: annotationParams,
        body: saveAnnotationBodySchema,
        response: { 200: saveAnnotationResponseSchema },
      },
      preHandler: requireUser(),
    },
    async (request) => ({
      success: true as const,
      annotation: await annotations.saveAnnotation(
        ctx,
        currentUser(request),
        request.params.uid,
        request.params.annotationUid,
        request.body,
        request.ip,
      ),
    }),
  );

  r.delete(
    '/api/image/:uid/annotations/:annotationUid',
    {
      schema: {
        summary: "Delete one of the caller's annotations",
        tags: TAGS,
        params: annotationParams,
        response: { 204: emptyResponse('Deleted.') },
      },
      preHandler: requireUser(),
    },
    async (request, reply) => {
      await annotations.deleteAnnotation(
        ctx,
        currentUser(request),
        request.params.uid,
        request.params.annotationUid,
        request.ip,
      );
      return reply.status(204).send();
    },
  );
}
