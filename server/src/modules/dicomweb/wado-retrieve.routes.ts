import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError } from '../../lib/errors.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { parseBulkDataPath } from '../dicom/index.js';
import { DecodeOverLimit } from '../dicom/index.js';
import { isDecodable as isDecodableSyntax } from '../dicom/index.js';
import { FrameNotDecodable, FrameNotFound, FramesTooLarge } from '../dicom/index.js';
import { TRANSFER_SYNTAX } from '../dicom/index.js';
import {
  mountedSchema,
  signedInMount,
  type DicomwebLimits,
  type DicomwebReadMount,
} from './dicomweb.routes.js';
import * as dicomweb from './dicomweb.service.js';
import { instancePathOf, pathOf } from './route-paths.js';
import {
  multipartRelatedContentType,
  newBoundary,
  writeMultipartRelated,
  type WritePart,
} from '../../lib/multipart-related/multipart-related.js';
import type { InstanceRow } from './dicomweb.repository.js';
import { sendDecodeRefusal } from './decode-refusals.js';
import { imageAttributesOf, readEncapsulatedFrames } from './encapsulated-frames.js';
import { readNativeFrames } from './native-frames.js';
import { acceptsBulkData, acceptsStoredInstances, frameEncodingFor } from './wado-accept.js';
import {
  bulkDataParams,
  framesParams,
  instanceParams,
  retrieveSchema,
  seriesParams,
  studyParams,
} from './dicomweb.schemas.js';

type Params = { frames?: string; '*'?: string };

function notAcceptable(reply: FastifyReply, what: string) {
  return reply
    .status(406)
    .send({ error: `${what} cannot be sent in the media type or transfer syntax asked for.` });
}

/** Frame numbers of the URL ("1,3,5"), from 1; undefined when one is not a positive whole number. */
function frameNumbersOf(text: string | undefined): number[] | undefined {
  const numbers = (text ?? '').split(',').map((part) => Number(part.trim()));
  return numbers.every((n) => Number.isInteger(n) && n >= 1) ? numbers : undefined;
}

function sendParts(reply: FastifyReply, type: string, parts: AsyncIterable<WritePart>) {
  const boundary = newBoundary();
  return reply
    .type(multipartRelatedContentType(boundary, type))
    .header('cache-control', 'no-store')
    .send(writeMultipartRelated(parts, boundary));
}

/**
 * The frames asked for, read as cheaply as the instance allows: uncompressed frames and compressed
 * frames whose places ingest recorded are read by their byte ranges (a compressed one decoded on a
 * decode thread when asked for uncompressed); any other instance is read whole on a decode thread.
 */
async function framesOf(
  ctx: AppContext,
  row: InstanceRow,
  numbers: number[],
  decompress: boolean,
): Promise<{ transferSyntaxUid: string; frames: Uint8Array[] }> {
  const native = await readNativeFrames(ctx.storage, row, numbers);
  if (native) {
    return { transferSyntaxUid: TRANSFER_SYNTAX.explicitLittleEndian, frames: native };
  }
  const maxPixels = ctx.config.dicom.maxRenderPixels;
  const isDecodable = isDecodableSyntax(row.transferSyntaxUid);
  // A frame larger than the decoder takes is refused before anything is read.
  if (decompress && row.rows && row.columns && row.rows * row.columns > maxPixels) {
    throw new FramesTooLarge('The frames are larger than the decoder accepts.');
  }
  if (!decompress || isDecodable) {
    const codestreams = await readEncapsulatedFrames(ctx.db, ctx.storage, row, numbers);
    if (codestreams && !decompress) {
      return { transferSyntaxUid: row.transferSyntaxUid, frames: codestreams };
    }
    if (codestreams) {
      const image = await imageAttributesOf(ctx.db, row.instanceId);
      const decoded = await ctx.decoder.decodeFrames(row.transferSyntaxUid, image, codestreams);
      return { transferSyntaxUid: TRANSFER_SYNTAX.explicitLittleEndian, frames: decoded.frames };
    }
  }
  if (row.size > ctx.decoder.maxInstanceBytes) {
    throw new DecodeOverLimit('The file is larger than the largest instance read.');
  }
  return ctx.decoder.readFrames(await ctx.storage.readAll(row.storageKey), numbers, decompress);
}

/** WADO-RS retrieval of instances (Part 10, byte for byte as stored), of frames and of bulk data (PS3.18 10.4). */
export function wadoRetrieveRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  requireUser: RequireUser,
  limits: DicomwebLimits,
): void {
  const signedIn = { preHandler: [requireUser(), limits.read] };
  wadoFrameRoutes(app, ctx, signedInMount(requireUser, limits));

  /** The one instance a frame or bulk data URL names, if the caller may read it; its read audited as a download. */
  async function downloadedInstance(request: FastifyRequest): Promise<InstanceRow> {
    const [row] = await dicomweb.instanceAt(
      ctx,
      dicomweb.readerOf(currentUser(request)),
      instancePathOf(request),
      request.ip,
      'download',
    );
    return row!;
  }

  const NO_TRANSCODING =
    'multipart/related; type="application/dicom": each part a stored file byte for byte. Never ' +
    'transcoded: an Accept asking for another transfer syntax gets 406.';
  const retrievals: [string, FastifySchema][] = [
    ['/dicomweb/studies/:study', retrieveSchema("WADO-RS: a study's instances", studyParams, NO_TRANSCODING)],
    [
      '/dicomweb/studies/:study/series/:series',
      retrieveSchema("WADO-RS: a series' instances", seriesParams, NO_TRANSCODING),
    ],
    [
      '/dicomweb/studies/:study/series/:series/instances/:instance',
      retrieveSchema('WADO-RS: one instance', instanceParams, NO_TRANSCODING),
    ],
  ];
  for (const [url, schema] of retrievals) {
    app.get(url, { ...signedIn, schema }, async (request, reply) => {
      const rows = await dicomweb.instancesAt(
        ctx,
        dicomweb.readerOf(currentUser(request)),
        pathOf(request),
        request.ip,
        'download',
      );
      const syntaxes = [...new Set(rows.map((row) => row.transferSyntaxUid))];
      if (!acceptsStoredInstances(request.headers.accept, syntaxes)) {
        return notAcceptable(reply, 'The instances');
      }
      async function* parts(): AsyncGenerator<WritePart> {
        for (const row of rows) {
          // Opened one at a time as the response is written, never every file at once.
          yield {
            contentType: `application/dicom; transfer-syntax=${row.transferSyntaxUid}`,
            body: await ctx.storage.read(row.storageKey),
          };
        }
      }
      return sendParts(reply, 'application/dicom', parts());
    });
  }

  app.get(
    '/dicomweb/studies/:study/series/:series/instances/:instance/bulkdata/*',
    {
      ...signedIn,
      schema: retrieveSchema(
        'WADO-RS: a bulk data value',
        bulkDataParams,
        'multipart/related; type="application/octet-stream" with one part: binary values little endian, ' +
          'text as UTF-8. Named by the BulkDataURI of the metadata.',
      ),
    },
    async (request, reply) => {
      // Checked before the instance is looked up, so a malformed path tells nothing about it.
      const place = parseBulkDataPath((request.params as Params)['*'] ?? '');
      if (!place) {
        throw new AppError('NOT_FOUND');
      }
      const row = await downloadedInstance(request);
      if (!acceptsBulkData(request.headers.accept)) {
        return notAcceptable(reply, 'The bulk data');
      }
      let value: Uint8Array | null;
      try {
        if (row.size > ctx.decoder.maxInstanceBytes) {
          throw new DecodeOverLimit('The file is larger than the largest instance read.');
        }
        value = await ctx.decoder.readBulkData(await ctx.storage.readAll(row.storageKey), place);
      } catch (err) {
        const refused = sendDecodeRefusal(reply, err);
        if (refused) {
          return refused;
        }
        throw err;
      }
      if (!value) {
        throw new AppError('NOT_FOUND');
      }
      const part: WritePart = { contentType: 'application/octet-stream', body: value };
      return sendParts(reply, 'application/octet-stream', Readable.from([part]));
    },
  );
}

/** WADO-RS frames under a mount's root: what the viewer reads to draw a DICOM image. */
export function wadoFrameRoutes(app: FastifyInstance, ctx: AppContext, mount: DicomwebReadMount): void {
  app.get(
    `${mount.root}/studies/:study/series/:series/instances/:instance/frames/:frames`,
    {
      preHandler: mount.preHandler,
      schema: mountedSchema(
        mount,
        retrieveSchema(
          'WADO-RS: frames',
          framesParams,
          'multipart/related; type="application/octet-stream": uncompressed little endian by default or ' +
            'with transfer-syntax=1.2.840.10008.1.2.1; as stored with transfer-syntax=* or the stored syntax.',
        ),
      ),
    },
    async (request, reply) => {
      const numbers = frameNumbersOf((request.params as Params).frames);
      if (!numbers) {
        throw new AppError('NOT_FOUND');
      }
      const [row] = await dicomweb.instanceAt(
        ctx,
        await mount.readerOf(request),
        instancePathOf(request),
        request.ip,
        'download',
      );
      const encoding = frameEncodingFor(request.headers.accept, row!.transferSyntaxUid);
      if (!encoding) {
        return notAcceptable(reply, 'The frames');
      }
      let payload: { transferSyntaxUid: string; frames: Uint8Array[] };
      try {
        payload = await framesOf(ctx, row!, numbers, encoding === 'uncompressed');
      } catch (err) {
        const refused = sendDecodeRefusal(reply, err);
        if (refused) {
          return refused;
        }
        if (err instanceof FrameNotFound) {
          throw new AppError('NOT_FOUND');
        }
        if (err instanceof FrameNotDecodable || err instanceof FramesTooLarge) {
          return notAcceptable(reply, 'The frames');
        }
        throw err;
      }
      const contentType = `application/octet-stream; transfer-syntax=${payload.transferSyntaxUid}`;
      // Already in memory: an object stream of the parts.
      const parts = Readable.from(payload.frames.map((frame): WritePart => ({ contentType, body: frame })));
      return sendParts(reply, 'application/octet-stream', parts);
    },
  );
}
