import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_BODIES } from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import type { Server } from '@tus/server';
import { findUpload } from './uploads.repository.js';
import { UPLOADS_PATH, uploadCaller } from './tus-server.js';

/**
 * Mounts the tus server. Fastify authenticates the caller and checks that an existing upload is
 * theirs (404 otherwise), then hands the raw request to tus, which reads the body itself.
 */
export function uploadsRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser, tus: Server) {
  void app.register((scope, _options, done) => {
    // Leave every body unread: tus streams it to disk.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null));

    async function handle(request: FastifyRequest<{ Params: { id?: string } }>, reply: FastifyReply) {
      const user = currentUser(request);
      const id = request.params.id;
      if (id !== undefined) {
        const upload = await findUpload(ctx.db, id);
        if (!upload || upload.userId !== user.id) {
          return reply.status(404).send(ERROR_BODIES.notFound);
        }
      }
      uploadCaller.set(request.raw, user);
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
    done();
  });
}
