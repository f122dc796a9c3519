import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignIncomingBodySchema,
  assignIncomingResponseSchema,
  incomingListSchema,
  isUuid,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/errors.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { assignIncoming, listIncoming } from './incoming.service.js';

const TAGS = ['Incoming'];

export function incomingRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/user/incoming',
    {
      schema: {
        summary: "The caller's Incoming list: studies received without a patient",
        tags: TAGS,
        response: { 200: incomingListSchema },
      },
      preHandler: requireUser('PHYSICIAN'),
    },
    (request) => listIncoming(ctx, currentUser(request)),
  );

  r.post(
    '/api/user/incoming/:uid/assign',
    {
      schema: {
        summary: "File a study of the Incoming list in a patient's archive",
        tags: TAGS,
        params: z.object({ uid: z.string() }),
        body: assignIncomingBodySchema,
        response: { 200: assignIncomingResponseSchema },
      },
      preHandler: requireUser('PHYSICIAN'),
    },
    (request) => {
      if (!isUuid(request.params.uid)) {
        throw new AppError('NOT_FOUND');
      }
      return assignIncoming(ctx, currentUser(request), request.params.uid, request.body, request.ip);
    },
  );
}
