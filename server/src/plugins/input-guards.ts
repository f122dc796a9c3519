import { Stream } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_BODIES } from '@ra/shared';

const NUL = '\u0000';

/** The first place in a parsed value holding a NUL character, as a dotted path; undefined when none. */
export function findNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') {
    return value.includes(NUL) ? path : undefined;
  }
  if (ArrayBuffer.isView(value) || value instanceof Stream) {
    // Raw bodies (a signed webhook) are bytes, and streamed ones (STOW-RS) are read by their route.
    return undefined;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNul(item, path ? `${path}.${index}` : String(index));
      if (found !== undefined) {
        return found;
      }
    }
    return undefined;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const found = key.includes(NUL) ? key : findNul(item, path ? `${path}.${key}` : key);
      if (found !== undefined) {
        return found;
      }
    }
  }
  return undefined;
}

function invalid(reply: FastifyReply, msg: string, path: string) {
  return reply.status(400).send({ errors: [{ msg, path }] });
}

/**
 * Refuses malformed input before any route sees it (api-contract §0): NUL characters anywhere
 * (PostgreSQL cannot store them, so they would surface as a 500), and JSON bodies that are not
 * objects on routes that declare a body (`null` must not pass as "no fields sent").
 */
export function registerInputGuards(app: FastifyInstance): void {
  app.addHook('preValidation', async (request: FastifyRequest, reply: FastifyReply) => {
    for (const part of [request.params, request.query, request.body]) {
      const path = findNul(part);
      if (path !== undefined) {
        return invalid(reply, 'Text must not contain NUL characters.', path);
      }
    }
    if (!request.routeOptions.schema?.body) {
      return undefined;
    }
    if (request.body === undefined) {
      // No body at all: each missing field then gets its own message from the schema.
      request.body = {};
    } else if (request.body === null || typeof request.body !== 'object' || Array.isArray(request.body)) {
      return invalid(reply, 'The request body must be a JSON object.', '');
    }
    return undefined;
  });
}

/**
 * Errors Fastify raises before routing (an over-long path parameter, a malformed URL) answer in
 * the contract's shapes instead of echoing the URL and a library code.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(404).send(ERROR_BODIES.notFound);
    return;
  }
  void reply.status(400).send({ errors: [{ msg: 'The request is not valid.', path: '' }] });
}
