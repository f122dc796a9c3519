import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addPatientBodySchema,
  addPatientResponseSchema,
  pageQuerySchema,
  patientPageSchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import * as patients from './patients.service.js';

export function patientsRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/auth/add-patient',
    {
      schema: {
        body: addPatientBodySchema,
        response: { 200: addPatientResponseSchema, 201: addPatientResponseSchema },
      },
      preHandler: requireUser('PHYSICIAN'),
    },
    async (request, reply) => {
      const result = await patients.addPatient(ctx, currentUser(request), request.body, request.ip);
      return reply.status(result.status).send({ success: true, msg: result.msg });
    },
  );

  r.get(
    '/api/user/patients',
    {
      schema: { querystring: pageQuerySchema, response: { 200: patientPageSchema } },
      preHandler: requireUser('PHYSICIAN', 'RADIOLOGIST'),
    },
    (request) => patients.listPatients(ctx, currentUser(request), request.query, request.ip),
  );
}
