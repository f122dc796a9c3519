import { Stream } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_BODIES } from '@ra/shared';
import { InvalidInput } from '../lib/errors.js';

const NUL = '\u0000';
/** JSON bodies nest at most this deep (docs/api.md §1.3); no form of ours needs more than three. */
export const MAX_JSON_DEPTH = 32;
export const TOO_DEEP = 'The request body is nested too deeply.';

/**
 * How deep the arrays and objects of a JSON text nest, read without parsing: brackets inside
 * strings do not count. Stops counting once past `limit`.
 */
export function jsonDepthOver(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const char = text.charCodeAt(at);
    if (inString) {
      if (char === 0x5c) {
        at += 1; // the escaped character
      } else if (char === 0x22) {
        inString = false;
      }
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x7b || char === 0x5b) {
      depth += 1;
      if (depth > limit) {
        return true;
      }
    } else if (char === 0x7d || char === 0x5d) {
      depth -= 1;
    }
  }
  return false;
}

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
 * Refuses malformed input before any route sees it (docs/api.md §1.3): NUL characters anywhere
 * (PostgreSQL cannot store them, so they would surface as a 500), and JSON bodies that are not
 * objects on routes that declare a body (`null` must not pass as "no fields sent").
 */
export function registerInputGuards(app: FastifyInstance): void {
  // Fastify's own JSON parser (with its prototype-poisoning checks), behind a depth check: a body
  // nested thousands deep would otherwise exhaust the stack of whatever walks it next.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (jsonDepthOver(text, MAX_JSON_DEPTH)) {
      done(new InvalidInput('', TOO_DEEP), undefined);
      return;
    }
    void parseJson(request, text, done);
  });
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
