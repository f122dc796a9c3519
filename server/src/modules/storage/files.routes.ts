import type { FastifyInstance, FastifyReply, FastifySchema } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { nonJsonResponse } from '../../plugins/api-docs.js';
import { auditReads } from '../audit/index.js';
import { FILES_PREFIX, verifySignedPath, type SignedQuery } from './signed-url.js';
import { mimeOfKey, SUPPORTED_IMAGE_FORMATS } from './file-types.js';
import type { ByteRange } from './storage.js';

/** Parses a single `bytes=a-b` range; null when absent, 'invalid' when it cannot be served. */
function parseRange(header: string | undefined, size: number): ByteRange | null | 'invalid' {
  if (!header) {
    return null;
  }
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) {
    return 'invalid';
  }
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  return start <= end && start < size ? { start, end } : 'invalid';
}

function refuse(reply: FastifyReply, status: 403 | 404 | 416, size?: number) {
  if (status === 416 && size !== undefined) {
    void reply.header('Content-Range', `bytes */${size}`);
  }
  return reply
    .status(status)
    .send(status === 403 ? { error: 'This link is invalid or has expired.' } : { error: 'Not found.' });
}

const FILE_TYPES = [
  ...Object.values(SUPPORTED_IMAGE_FORMATS).map((format) => format.mime),
  'application/octet-stream',
];

const fileSchema: FastifySchema = {
  summary: 'A stored file, by a signed URL issued in another answer',
  description: 'No bearer token: the URL is the permission. 206 for a single `Range: bytes=a-b`.',
  tags: ['Files'],
  params: z.object({ '*': z.string().describe("The file's storage key.") }),
  // The signature is checked by the handler (403 when wrong), never by a schema.
  documentedOnly: {
    querystring: z.object({
      expires: z.string().describe('Unix seconds.'),
      sig: z.string(),
      u: z.string().optional().describe('The viewer the URL was issued to.'),
      p: z.string().optional().describe('The patient the file belongs to.'),
    }),
    headers: z.object({ range: z.string().optional().describe('One range: bytes=a-b, a- or -n.') }),
  },
  response: {
    200: nonJsonResponse('The file.', FILE_TYPES),
    206: nonJsonResponse('The range asked for.', FILE_TYPES),
  },
};

/** Pictures are the only stored files that may be served without naming a patient (staff's own). */
const MAY_BE_ANONYMOUS = /^profiles\//;

/**
 * Serves stored files to holders of a valid signed URL only (docs/api.md §11.3). A patient's file is
 * audited as a download by the viewer the URL was issued to, durably, before any byte is sent.
 */
export function filesRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { '*': string }; Querystring: SignedQuery }>(
    `${FILES_PREFIX}*`,
    { schema: fileSchema },
    async (request, reply) => {
      const key = request.params['*'];
      const path = `${FILES_PREFIX}${key}`;
      const signed = verifySignedPath(ctx.fileUrlSecret, path, request.query);
      // Archive files are always issued to a named viewer; one without an audience was not made by us.
      if (!signed || (!signed.audience && !MAY_BE_ANONYMOUS.test(key))) {
        return refuse(reply, 403);
      }
      const stored = await ctx.storage.stat(key);
      if (!stored) {
        return refuse(reply, 404);
      }
      const range = parseRange(request.headers.range, stored.size);
      if (range === 'invalid') {
        return refuse(reply, 416, stored.size);
      }
      if (signed.audience) {
        // Fail closed: if the download cannot be recorded, the error handler answers 500 instead.
        await auditReads(ctx, [
          {
            actorId: signed.audience.viewerId,
            patientId: signed.audience.patientId,
            action: 'download',
            recordType: 'file',
            recordId: key,
            ip: request.ip,
          },
        ]);
      }
      void reply
        .header('Content-Type', mimeOfKey(key))
        .header('Cache-Control', 'no-store')
        .header('Content-Disposition', `inline; filename="${key.split('/').pop()}"`)
        .header('Accept-Ranges', 'bytes')
        .header('Cross-Origin-Resource-Policy', 'same-origin');
      if (range) {
        void reply
          .status(206)
          .header('Content-Range', `bytes ${range.start}-${range.end}/${stored.size}`)
          .header('Content-Length', range.end - range.start + 1);
        return reply.send(await ctx.storage.read(key, range));
      }
      void reply.header('Content-Length', stored.size);
      return reply.send(await ctx.storage.read(key));
    },
  );
}
