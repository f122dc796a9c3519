import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import type { FastifyInstance } from 'fastify';
import {
  multipartRelatedContentType,
  newBoundary,
  writeMultipartRelated,
} from '../src/lib/multipart-related/multipart-related.js';

/** A STOW-RS request (`query` e.g. "?patient=<uid>") of Part 10 files as multipart/related parts of `type`. */
export async function stow(
  app: FastifyInstance,
  token: string,
  parts: Buffer[],
  query: string,
  options: { type?: string; userAgent?: string } = {},
) {
  const type = options.type ?? 'application/dicom';
  const boundary = newBoundary();
  const body = await buffer(
    writeMultipartRelated(Readable.from(parts.map((part) => ({ contentType: type, body: part }))), boundary),
  );
  return app.inject({
    method: 'POST',
    url: `/dicomweb/studies${query}`,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': multipartRelatedContentType(boundary, type),
      accept: 'application/dicom+json',
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
    },
    payload: body,
  });
}
