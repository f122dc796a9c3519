import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { nonJsonResponse } from '../../plugins/api-docs.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { downloadRequestOf, sendZip } from './zip-answer.js';
import * as downloads from './downloads.service.js';

const TAGS = ['Downloads'];

const rangeHeaders = z.object({
  range: z.string().optional().describe('One range, bytes=a-b, a- or -n, to resume the same ZIP.'),
  'if-range': z.string().optional().describe('The ETag of the ZIP being resumed.'),
});

const zipResponses = {
  200: nonJsonResponse('The ZIP, written as it is sent.', ['application/zip']),
  206: nonJsonResponse('The range asked for of the same ZIP.', ['application/zip']),
};

/** The ZIP downloads of docs/api.md §12.4. */
export function downloadsRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/image/:uid/download',
    {
      schema: {
        summary: 'One archive item as a ZIP: its files, a DICOMDIR, index.html and archive.json',
        tags: TAGS,
        params: z.object({ uid: z.string() }),
        headers: rangeHeaders,
        response: zipResponses,
      },
      // Bytes of a stream: never compressed, and HEAD would audit a download that sends nothing.
      compress: false,
      exposeHeadRoute: false,
      preHandler: requireUser(),
    },
    async (request, reply) =>
      sendZip(
        reply,
        await downloads.downloadItem(
          ctx,
          currentUser(request),
          request.params.uid,
          downloadRequestOf(request),
        ),
      ),
  );

  r.get(
    '/api/user/archive/download',
    {
      schema: {
        summary: "The patient's whole archive as a ZIP",
        tags: TAGS,
        headers: rangeHeaders,
        response: zipResponses,
      },
      compress: false,
      exposeHeadRoute: false,
      preHandler: requireUser('PATIENT'),
    },
    async (request, reply) =>
      sendZip(reply, await downloads.downloadArchive(ctx, currentUser(request), downloadRequestOf(request))),
  );
}
