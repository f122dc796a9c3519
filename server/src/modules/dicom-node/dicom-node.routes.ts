import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dicomNodeListSchema, sendStudyBodySchema, sendStudyResponseSchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { dicomNodesOf } from './node-registry.service.js';
import { queueStudySend } from './send-study.service.js';

const itemParams = z.object({ uid: z.string() });

/** The physician's DICOM nodes and sending a study to one (docs/api.md §12.6). */
export function dicomNodeRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/user/dicom-nodes',
    {
      schema: {
        summary: "The physician's registered DICOM nodes",
        tags: ['DICOM nodes'],
        response: { 200: dicomNodeListSchema },
      },
      preHandler: requireUser('PHYSICIAN'),
    },
    async (request) => ({ nodes: await dicomNodesOf(ctx.db, currentUser(request).id) }),
  );

  r.post(
    '/api/image/:uid/send',
    {
      schema: {
        summary: 'Send a study to one of your DICOM nodes (C-STORE, in the background)',
        tags: ['DICOM nodes'],
        params: itemParams,
        body: sendStudyBodySchema,
        response: { 202: sendStudyResponseSchema },
      },
      preHandler: requireUser('PHYSICIAN'),
    },
    async (request, reply) => {
      const answer = await queueStudySend(
        ctx,
        currentUser(request),
        request.params.uid,
        request.body.ae_title,
        request.ip,
      );
      return reply.code(202).send(answer);
    },
  );
}
