import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_BODIES } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import type { Server } from '@tus/server';
import { UPLOADS_PATH, isAmbiguousTusUrl, uploadCaller } from './tus-request.js';

/**
 * Mounts the tus server. Fastify refuses ambiguous URLs and authenticates the caller, then hands the
 * raw request to tus, which reads the body itself and checks (in its hooks) that the upload is the
 * caller's. OPTIONS is public: it is tus' discovery request and reveals only the server's limits.
 */
export function uploadsRoutes(app: FastifyInstance, _ctx: AppContext, requireUser: RequireUser, tus: Server) {
  void app.register((scope, _options, done) => {
    // Leave every body unread: tus streams it to disk.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    // Before authentication: an ambiguous URL is refused the same way whoever sends it.
    scope.addHook('onRequest', async (request, reply) => {
      if (isAmbiguousTusUrl(request.url)) {
        return reply.status(404).send(ERROR_BODIES.notFound);
      }
    });

    async function handle(request: FastifyRequest, reply: FastifyReply) {
      if (request.method !== 'OPTIONS') {
        uploadCaller.set(request.raw, currentUser(request));
      }
      reply.hijack();
      await tus.handle(request.raw, reply.raw);
      return reply;
    }

    scope.route({ method: ['POST'], url: UPLOADS_PATH, preHandler: requireUser(), handler: handle });
    scope.route({
      method: ['HEAD', 'PATCH', 'DELETE'],
      url: `${UPLOADS_PATH}/:id`,
      preHandler: requireUser(),
      handler: handle,
    });
    scope.route({ method: ['OPTIONS'], url: UPLOADS_PATH, handler: handle });
    scope.route({ method: ['OPTIONS'], url: `${UPLOADS_PATH}/:id`, handler: handle });
    done();
  });
}
