import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createdShareSchema,
  createShareBodySchema,
  pageQuerySchema,
  SHARE_NO_DOWNLOAD,
  SHARE_NOT_AVAILABLE,
  shareListPageSchema,
  shareOpeningSchema,
} from '@ra/shared';
import type { AppContext } from '../../context.js';
import { currentUser, type RequireUser } from '../../plugins/auth.js';
import { emptyResponse, nonJsonResponse } from '../../plugins/api-docs.js';
import { dicomwebRateLimits, perIpRateLimit } from '../../plugins/rate-limit.js';
import { sharedItemScope } from '../access/index.js';
import { dicomwebReadRoutes, wadoFrameRoutes, type DicomwebReadMount } from '../dicomweb/index.js';
import { downloadRequestOf, sendZip } from '../downloads/index.js';
import * as shares from './shares.service.js';

const TAGS = ['Shares'];
const itemParams = z.object({ uid: z.string() });
const shareParams = z.object({ uid: z.string() });
/** Any text: a token that is not one of ours is looked up like any other and is not available. */
const tokenParams = z.object({ token: z.string().max(200) });
const errorBody = z.object({ error: z.string() });

function accessCodeOf(request: FastifyRequest): string | undefined {
  const value = request.headers['x-access-code'];
  return typeof value === 'string' ? value : undefined;
}

/** Share links (docs/api.md §20): making, listing and revoking them, and opening one without an account. */
export function sharesRoutes(app: FastifyInstance, ctx: AppContext, requireUser: RequireUser): void {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/image/:uid/shares',
    {
      schema: {
        summary: 'Share one item through a link',
        tags: TAGS,
        params: itemParams,
        body: createShareBodySchema,
        response: { 201: createdShareSchema },
      },
      preHandler: requireUser('PATIENT', 'PHYSICIAN'),
    },
    async (request, reply) => {
      const created = await shares.createShare(
        ctx,
        currentUser(request),
        request.params.uid,
        request.body,
        request.ip,
      );
      return reply.status(201).send(created);
    },
  );

  r.get(
    '/api/user/shares',
    {
      schema: {
        summary: "The caller's share links, newest first",
        tags: TAGS,
        querystring: pageQuerySchema,
        response: { 200: shareListPageSchema },
      },
      preHandler: requireUser('PATIENT', 'PHYSICIAN'),
    },
    (request) => shares.listShares(ctx, currentUser(request), request.query),
  );

  r.delete(
    '/api/shares/:uid',
    {
      schema: {
        summary: 'Revoke one of the caller’s share links at once',
        tags: TAGS,
        params: shareParams,
        response: { 204: emptyResponse('Revoked.') },
      },
      preHandler: requireUser(),
    },
    async (request, reply) => {
      await shares.revokeShare(ctx, currentUser(request), request.params.uid, request.ip);
      return reply.status(204).send();
    },
  );

  // Guessing codes is slowed per IP here; the database's count of wrong codes locks the link.
  const perIp = perIpRateLimit(app, ctx.config, 'share-open');
  r.get(
    '/api/s/:token',
    {
      schema: {
        summary: 'Open a share link (no account)',
        description: `The access code travels in the X-Access-Code header. 404 {"error":"${SHARE_NOT_AVAILABLE}"} for any link that cannot be opened.`,
        tags: TAGS,
        params: tokenParams,
        response: { 200: shareOpeningSchema, 401: errorBody, 404: errorBody },
      },
      preHandler: perIp,
    },
    (request) => shares.openShare(ctx, request.params.token, accessCodeOf(request), request.ip),
  );

  r.get(
    '/api/s/:token/download',
    {
      schema: {
        summary: 'The shared item as a ZIP, when the link allows downloading (no account)',
        description: `The access code travels in the X-Access-Code header; Range and If-Range resume the same ZIP. 403 {"error":"${SHARE_NO_DOWNLOAD}"} when the link does not allow downloading.`,
        tags: TAGS,
        params: tokenParams,
        headers: z.object({ range: z.string().optional(), 'if-range': z.string().optional() }),
        response: {
          200: nonJsonResponse('The ZIP, written as it is sent.', ['application/zip']),
          206: nonJsonResponse('The range asked for of the same ZIP.', ['application/zip']),
          401: errorBody,
          403: errorBody,
          404: errorBody,
        },
      },
      compress: false,
      exposeHeadRoute: false,
      preHandler: perIp,
    },
    async (request, reply) =>
      sendZip(
        reply,
        await shares.downloadShare(
          ctx,
          request.params.token,
          accessCodeOf(request),
          downloadRequestOf(request),
        ),
      ),
  );

  // The link's read-only DICOMweb: the routes of the dicomweb module, reading the one shared item.
  const limits = dicomwebRateLimits(app, ctx.config, 'share-dicomweb');
  const mount: DicomwebReadMount = {
    root: '/api/s/:token/dicomweb',
    rootParams: tokenParams,
    preHandler: [limits.read],
    readerOf: async (request) => {
      const { token } = request.params as { token: string };
      const link = await shares.requireOpenLink(ctx, token, accessCodeOf(request));
      return { ...sharedItemScope(link), actorId: link.id };
    },
  };
  dicomwebReadRoutes(app, ctx, mount);
  wadoFrameRoutes(app, ctx, mount);
}
