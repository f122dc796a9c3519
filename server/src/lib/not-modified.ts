import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * When the client already holds version `etag`, answers 304 with that ETag and no body at all (a
 * 304 with one would break keep-alive clients) and returns the reply; otherwise returns undefined.
 */
export function replyIfNotModified(
  request: FastifyRequest,
  reply: FastifyReply,
  etag: string,
): FastifyReply | undefined {
  if (request.headers['if-none-match'] !== etag) {
    return undefined;
  }
  return reply.header('ETag', etag).status(304).removeHeader('content-type').send();
}
