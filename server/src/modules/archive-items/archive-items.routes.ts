import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  imagePageSchema,
  imageResponseSchema,
  pageQuerySchema,
  updateNoteBodySchema,
  updateNoteResponseSchema,
  uploadImageBodySchema,
  uploadImageResponseSchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { sendSerializedOnce } from '../../plugins/response-serializer.js';
import * as notes from './item-notes.service.js';
import * as images from './archive-items.service.js';

const uidParams = z.object({ uid: z.string() });
const TAGS = ['Images'];

export function imagesRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/user/:uid/images',
    {
      schema: {
        summary: "A patient's archive items, newest first",
        tags: TAGS,
        params: uidParams,
        querystring: pageQuerySchema,
        response: { 200: imagePageSchema },
      },
      preHandler: requireUser(),
    },
    async (request, reply) =>
      // Pages come from a cache: each is serialized once, not at every request.
      sendSerializedOnce(
        reply,
        await images.listImages(ctx, currentUser(request), request.params.uid, request.query, request.ip),
      ),
  );

  r.post(
    '/api/user/upload-image',
    {
      schema: {
        summary: "Add a raster image to a patient's archive from a finished upload",
        tags: TAGS,
        body: uploadImageBodySchema,
        response: { 201: uploadImageResponseSchema },
      },
      preHandler: requireUser('PHYSICIAN', 'RADIOLOGIST'),
    },
    async (request, reply) => {
      const uid = await images.uploadImage(ctx, currentUser(request), request.body, request.ip);
      return reply.status(201).send({ success: true, uid });
    },
  );

  r.get(
    '/api/image/:uid',
    {
      schema: {
        summary: 'One archive item',
        tags: TAGS,
        params: uidParams,
        response: { 200: imageResponseSchema },
      },
      preHandler: requireUser(),
    },
    async (request) => ({
      image: await images.getImage(ctx, currentUser(request), request.params.uid, request.ip),
    }),
  );

  for (const method of ['PATCH', 'PUT'] as const) {
    r.route({
      method,
      url: '/api/image/:uid',
      schema: {
        summary: "Write the caller's note (and key images) on an item",
        tags: TAGS,
        params: uidParams,
        body: updateNoteBodySchema,
        response: { 200: updateNoteResponseSchema },
      },
      preHandler: requireUser('PHYSICIAN', 'RADIOLOGIST'),
      handler: async (request) => ({
        success: true as const,
        note: await notes.updateNote(ctx, currentUser(request), request.params.uid, request.body, request.ip),
      }),
    });
  }
}
