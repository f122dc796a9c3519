import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uploadStudyBodySchema, uploadStudyResponseSchema } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { fileStudies } from './study-ingest.service.js';

export function studiesRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/user/upload-study',
    {
      schema: {
        summary: "File uploaded DICOM files in a patient's archive",
        tags: ['Studies'],
        body: uploadStudyBodySchema,
        response: { 201: uploadStudyResponseSchema },
      },
      preHandler: requireUser('PHYSICIAN', 'RADIOLOGIST'),
    },
    async (request, reply) => {
      const filed = await fileStudies(ctx, currentUser(request), request.body, request.ip);
      return reply.status(201).send(filed);
    },
  );
}
