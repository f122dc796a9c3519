import { Readable } from 'node:stream';
import { z } from 'zod';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifySchema,
  preHandlerAsyncHookHandler,
} from 'fastify';
import { AppError } from '../../lib/errors.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import type { AppContext } from '../../context.js';
import type { QidoLevel } from './qido-query.js';
import { sendDecodeRefusal } from './decode-refusals.js';
import { convertStoredImage, renderedTypeOf, renderStoredFrame } from './rendered-images.js';
import * as dicomweb from './dicomweb.service.js';
import { instancePathOf, pathOf } from './route-paths.js';
import { storeInstances, UnsupportedMediaType } from './stow.service.js';
import {
  DICOM_JSON,
  imageSchema,
  instanceParams,
  metadataSchema,
  renderedFrameParams,
  searchSchema,
  seriesParams,
  storeSchema,
  studyParams,
} from './dicomweb.schemas.js';

type Params = { frames?: string };

/** Per-user limits of DICOMweb requests (plugins/rate-limit.ts), each placed after the sign-in check. */
export interface DicomwebLimits {
  read: preHandlerAsyncHookHandler;
  write: preHandlerAsyncHookHandler;
}

function sendJson(reply: FastifyReply, json: string | Readable) {
  // Patient data: never stored by a cache (the default for /api is set the same way).
  return reply.type(DICOM_JSON).header('cache-control', 'no-store').send(json);
}

/**
 * Where a set of read-only DICOMweb routes answers and for whom: `/dicomweb` for signed-in users,
 * or a share link's root (shares module), whose reader sees that link's one item.
 */
export interface DicomwebReadMount {
  /** The path the routes hang under, without a trailing slash; it may hold parameters. */
  root: string;
  preHandler: preHandlerAsyncHookHandler[];
  /** Parameters of `root` itself, checked with each route's own. */
  rootParams?: z.ZodObject;
  /** Who the request reads as; throws (401, 404) when it may read nothing. */
  readerOf: (request: FastifyRequest) => Promise<dicomweb.DicomReader>;
}

/** A route's schema with the parameters of the mount's root added to its own. */
export function mountedSchema(mount: DicomwebReadMount, schema: FastifySchema): FastifySchema {
  if (!mount.rootParams) {
    return schema;
  }
  const own = schema.params instanceof z.ZodObject ? schema.params.shape : {};
  return { ...schema, params: mount.rootParams.extend(own) };
}

/** The mount of `/dicomweb` itself: the app's bearer tokens and the archive's access rules. */
export function signedInMount(requireUser: RequireUser, limits: DicomwebLimits): DicomwebReadMount {
  return {
    root: '/dicomweb',
    preHandler: [requireUser(), limits.read],
    readerOf: (request) => Promise.resolve(dicomweb.readerOf(currentUser(request))),
  };
}

/** DICOMweb (PS3.18) at /dicomweb, with the app's bearer tokens and the archive's access rules. */
export function dicomwebRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  requireUser: RequireUser,
  limits: DicomwebLimits,
): void {
  dicomwebReadRoutes(app, ctx, signedInMount(requireUser, limits));
  const storing = { preHandler: [requireUser(), limits.write] };
  // STOW-RS bodies are read as they arrive (stow.service.ts), never parsed whole by Fastify.
  app.addContentTypeParser('multipart/related', (_request, payload, done) => done(null, payload));
  app.post('/dicomweb/studies', { ...storing, schema: storeSchema }, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    try {
      const answer = await storeInstances(
        ctx,
        currentUser(request),
        {
          body: request.body as Readable,
          contentType: request.headers['content-type'],
          patient: query.patient,
          confirm: query.confirm_patient_mismatch === 'true',
          ip: request.ip,
          source: request.headers['user-agent'] ?? '',
        },
        (study, series, instance) => dicomweb.urlOf(ctx, { study, series, instance }),
      );
      return await sendJson(reply.status(answer.status), JSON.stringify(answer.body));
    } catch (err) {
      if (err instanceof UnsupportedMediaType) {
        return reply.status(415).send({ error: err.message });
      }
      throw err;
    }
  });
}

/**
 * QIDO-RS searches, WADO-RS metadata, rendered frames and thumbnails under a mount's root: what the
 * viewer and the study page read. Nothing here writes.
 */
export function dicomwebReadRoutes(app: FastifyInstance, ctx: AppContext, mount: DicomwebReadMount): void {
  const root = mount.root;
  const signedIn = { preHandler: mount.preHandler };
  const mounted = (schema: FastifySchema) => mountedSchema(mount, schema);

  const searches: [string, QidoLevel, FastifySchema][] = [
    [`${root}/studies`, 'study', searchSchema('QIDO-RS: search for studies')],
    [
      `${root}/studies/:study/series`,
      'series',
      searchSchema("QIDO-RS: search a study's series", studyParams),
    ],
    [
      `${root}/studies/:study/instances`,
      'instance',
      searchSchema("QIDO-RS: search a study's instances", studyParams),
    ],
    [
      `${root}/studies/:study/series/:series/instances`,
      'instance',
      searchSchema("QIDO-RS: search a series' instances", seriesParams),
    ],
  ];
  for (const [url, level, schema] of searches) {
    app.get(url, { ...signedIn, schema: mounted(schema) }, async (request, reply) => {
      const answer = await dicomweb.search(
        ctx,
        await mount.readerOf(request),
        level,
        pathOf(request),
        request.query as dicomweb.QueryString,
        request.ip,
      );
      if (answer.ignored.length > 0) {
        void reply.header(
          'warning',
          // The keys are the caller's text: only visible ASCII goes into the header, never a quote.
          `299 ${new URL(ctx.config.publicUrl).host} "Not used for matching: ${answer.ignored.join(', ').replace(/[^\x21-\x7e ]|"/g, '?')}"`,
        );
      }
      return sendJson(reply, JSON.stringify(answer.datasets));
    });
  }

  const metadata: [string, FastifySchema][] = [
    [`${root}/studies/:study/metadata`, metadataSchema("WADO-RS: a study's metadata", studyParams)],
    [
      `${root}/studies/:study/series/:series/metadata`,
      metadataSchema("WADO-RS: a series' metadata", seriesParams),
    ],
    [
      `${root}/studies/:study/series/:series/instances/:instance/metadata`,
      metadataSchema("WADO-RS: an instance's metadata", instanceParams),
    ],
  ];
  for (const [url, schema] of metadata) {
    app.get(url, { ...signedIn, schema: mounted(schema) }, async (request, reply) => {
      const chunks = await dicomweb.metadataAt(
        ctx,
        await mount.readerOf(request),
        pathOf(request),
        request.ip,
      );
      return sendJson(reply, Readable.from(chunks, { objectMode: false }));
    });
  }

  async function sendRendered(request: FastifyRequest, reply: FastifyReply, frameNumber: number) {
    const type = renderedTypeOf(request.headers.accept);
    if (!type) {
      return reply.status(406).send({ error: 'Rendered images are available as image/jpeg or image/png.' });
    }
    const [instance] = await dicomweb.instanceAt(
      ctx,
      await mount.readerOf(request),
      instancePathOf(request),
      request.ip,
    );
    let image: Buffer | undefined;
    try {
      image = instance?.isImage
        ? await renderStoredFrame(ctx.decoder, ctx.storage, instance, frameNumber, type)
        : undefined;
    } catch (err) {
      const refused = sendDecodeRefusal(reply, err);
      if (!refused) {
        throw err;
      }
      return refused;
    }
    if (!image) {
      throw new AppError('NOT_FOUND');
    }
    return reply.type(type).header('cache-control', 'private, no-store').send(image);
  }

  app.get(
    `${root}/studies/:study/series/:series/instances/:instance/rendered`,
    {
      ...signedIn,
      schema: mounted(
        imageSchema("An instance's first frame, rendered", instanceParams, 'Windowed as in the preview.'),
      ),
    },
    (request, reply) => sendRendered(request, reply, 1),
  );
  app.get(
    `${root}/studies/:study/series/:series/instances/:instance/frames/:frames/rendered`,
    {
      ...signedIn,
      schema: mounted(imageSchema('One frame, rendered', renderedFrameParams, 'Windowed as in the preview.')),
    },
    (request, reply) => {
      const frame = Number((request.params as Params).frames);
      if (!Number.isInteger(frame) || frame < 1) {
        throw new AppError('NOT_FOUND');
      }
      return sendRendered(request, reply, frame);
    },
  );

  /** A series' thumbnail (drawn with the study's preview), or the study's own preview thumbnail. */
  const thumbnails: [string, FastifySchema][] = [
    [
      `${root}/studies/:study/thumbnail`,
      imageSchema("A study's preview thumbnail", studyParams, '404 until the background job has made it.'),
    ],
    [
      `${root}/studies/:study/series/:series/thumbnail`,
      imageSchema("A series' thumbnail", seriesParams, '404 until the background job has made it.'),
    ],
  ];
  for (const [url, schema] of thumbnails) {
    app.get(url, { ...signedIn, schema: mounted(schema) }, async (request, reply) => {
      const type = renderedTypeOf(request.headers.accept);
      if (!type) {
        return reply.status(406).send({ error: 'Thumbnails are available as image/jpeg or image/png.' });
      }
      const path = pathOf(request);
      const rows = await dicomweb.instancesAt(ctx, await mount.readerOf(request), path, request.ip);
      const key = path.series ? rows[0]!.thumbnailKey : `thumbnails/${rows[0]!.itemId}.webp`;
      if (!key || !(await ctx.storage.stat(key))) {
        throw new AppError('NOT_FOUND');
      }
      return reply
        .type(type)
        .header('cache-control', 'private, no-store')
        .send(await convertStoredImage(ctx.storage, key, type));
    });
  }
}
