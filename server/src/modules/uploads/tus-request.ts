import type { IncomingMessage } from 'node:http';
import type { ServerOptions } from '@tus/server';
import type { Actor } from '../../lib/actor.js';

export const UPLOADS_PATH = '/api/uploads';

/** The request object tus hands to its hooks and options. */
export type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];

/** The signed-in user of each tus request, set by the Fastify route before it hands the request over. */
export const uploadCaller = new WeakMap<IncomingMessage, Actor>();

export function rawRequestOf(req: TusRequest): IncomingMessage | undefined {
  return (req as { runtime?: { node?: { req?: IncomingMessage } } }).runtime?.node?.req;
}

const UPLOAD_URL = /^\/api\/uploads\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * The upload id of a tus request, read from the raw request target and nothing else: the whole
 * path must be `/api/uploads/<uuid>`. tus' own default takes the last `/`-segment of the full URL,
 * query string included, so `/api/uploads/<mine>?x=/<yours>` would name someone else's upload
 * while routing and the ownership check saw mine. Both tus and the ownership check use this.
 */
export function tusUploadIdOf(requestTarget: string | undefined): string | undefined {
  return requestTarget === undefined ? undefined : UPLOAD_URL.exec(requestTarget)?.[1];
}

/** tus' `getFileIdFromRequest`: the id from the path of the raw request, never from its query. */
export function fileIdFromTusRequest(req: TusRequest): string | undefined {
  return tusUploadIdOf(rawRequestOf(req)?.url);
}

/**
 * True when a request target could be read differently by Fastify and by tus: a query string, a
 * `;` (matrix parameters), or any percent-encoding (an encoded `/`, `?` or `;`). tus clients never
 * send these, so such requests are refused before anything else looks at them.
 */
export function isAmbiguousTusUrl(requestTarget: string): boolean {
  return /[?;%#\\]/.test(requestTarget);
}
