import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { healthSchema } from '@ra/shared';

export function healthRoutes(app: FastifyInstance, ping: () => Promise<void>): void {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/api/health',
    {
      schema: {
        summary: 'Check the server and its database',
        tags: ['Health'],
        response: { 200: healthSchema, 503: healthSchema },
      },
    },
    async (request, reply) => {
      try {
        await ping();
        return { status: 'ok' as const, db: 'ok' as const };
      } catch (err) {
        request.log.error({ err }, 'database health check failed');
        return reply.status(503).send({ status: 'error', db: 'error' });
      }
    },
  );
}
