import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { z } from 'zod';
import { ERROR_BODIES } from '@ra/shared';
import { emptyResponse, type ResponseHeaders } from '../../plugins/api-docs.js';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import type { Server } from '@tus/server';
import { UPLOADS_PATH, isAmbiguousTusUrl, uploadCaller } from './tus-request.js';

const TAGS = ['Uploads'];
const TUS_RESUMABLE = z.literal('1.0.0').describe('The tus protocol version.');
const idParams = z.object({ id: z.string().describe('The upload id, the last part of its Location.') });
const OFFSET: ResponseHeaders = {
  'Upload-Offset': { description: 'Bytes received so far.', schema: { type: 'integer' } },
};

/**
 * What the OpenAPI document says of the tus requests. tus reads the headers and the body itself,
 * so they are documented only; Fastify hands the request over untouched (the replies are tus').
 */
const DOCS = {
  create: {
    summary: 'Create an upload (tus creation, optionally with its first bytes)',
    tags: TAGS,
    consumes: ['application/offset+octet-stream'],
    documentedOnly: {
      headers: z.object({
        'tus-resumable': TUS_RESUMABLE,
        'upload-length': z
          .string()
          .describe('The size of the whole file in bytes (deferred length is refused).'),
        'upload-metadata': z
          .string()
          .describe(
            'filename, filetype and purpose (image, profile, dicom, dicom-zip, dicom-bundle), base64.',
          ),
      }),
      body: z.unknown().describe('Optional: the first bytes of the file (creation-with-upload).'),
    },
    response: {
      201: emptyResponse('Created.', {
        Location: { description: '/api/uploads/<id>, the URL of the upload.', schema: { type: 'string' } },
        ...OFFSET,
      }),
    },
  },
  offset: {
    summary: 'How many bytes of an upload have arrived',
    tags: TAGS,
    params: idParams,
    documentedOnly: { headers: z.object({ 'tus-resumable': TUS_RESUMABLE }) },
    response: {
      200: emptyResponse('The offset.', {
        ...OFFSET,
        'Upload-Length': { description: 'The size of the whole file.', schema: { type: 'integer' } },
      }),
    },
  },
  append: {
    summary: 'Send the next bytes of an upload',
    tags: TAGS,
    params: idParams,
    consumes: ['application/offset+octet-stream'],
    documentedOnly: {
      headers: z.object({
        'tus-resumable': TUS_RESUMABLE,
        'upload-offset': z.string().describe('Where these bytes start: the offset HEAD answered.'),
      }),
      body: z.unknown().describe('The bytes.'),
    },
    response: { 204: emptyResponse('Received.', OFFSET) },
  },
  remove: {
    summary: 'Delete an unfinished or unclaimed upload (tus termination)',
    tags: TAGS,
    params: idParams,
    documentedOnly: { headers: z.object({ 'tus-resumable': TUS_RESUMABLE }) },
    response: { 204: emptyResponse('Deleted.') },
  },
  discover: {
    summary: 'tus discovery: the version, extensions and largest size offered',
    tags: TAGS,
    response: {
      204: emptyResponse("The server's tus capabilities.", {
        'Tus-Version': { description: '1.0.0', schema: { type: 'string' } },
        'Tus-Extension': {
          description: 'creation, creation-with-upload, expiration, termination',
          schema: { type: 'string' },
        },
        'Tus-Max-Size': { description: 'The largest upload, in bytes.', schema: { type: 'integer' } },
      }),
    },
  },
} satisfies Record<string, FastifySchema>;

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

    const upload = `${UPLOADS_PATH}/:id`;
    scope.route({
      method: 'POST',
      url: UPLOADS_PATH,
      schema: DOCS.create,
      preHandler: requireUser(),
      handler: handle,
    });
    scope.route({
      method: 'HEAD',
      url: upload,
      schema: DOCS.offset,
      // @fastify/swagger leaves HEAD routes out (most are GET routes' twins) unless told.
      config: { swagger: { exposeHeadRoute: true } },
      preHandler: requireUser(),
      handler: handle,
    });
    scope.route({
      method: 'PATCH',
      url: upload,
      schema: DOCS.append,
      preHandler: requireUser(),
      handler: handle,
    });
    scope.route({
      method: 'DELETE',
      url: upload,
      schema: DOCS.remove,
      preHandler: requireUser(),
      handler: handle,
    });
    scope.route({ method: 'OPTIONS', url: UPLOADS_PATH, schema: DOCS.discover, handler: handle });
    scope.route({
      method: 'OPTIONS',
      url: upload,
      schema: { ...DOCS.discover, params: idParams },
      handler: handle,
    });
    done();
  });
}
