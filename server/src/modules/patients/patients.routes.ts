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

const TAGS = ['Patients'];

export function patientsRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/auth/add-patient',
    {
      schema: {
        summary: 'Add a patient: link an account, or create one and invite them',
        description: '201 when an account was created, 200 when an existing one was linked.',
        tags: TAGS,
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
      schema: {
        summary: "The caller's patients, with their latest items",
        tags: TAGS,
        querystring: pageQuerySchema,
        response: { 200: patientPageSchema },
      },
      preHandler: requireUser('PHYSICIAN', 'RADIOLOGIST'),
    },
    (request) => patients.listPatients(ctx, currentUser(request), request.query, request.ip),
  );
}
