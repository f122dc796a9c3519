import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_BODIES } from '@ra/shared';
import { AppError, InvalidInput, Refusal, RuleViolation } from '../lib/errors.js';

const BODY_BY_CODE = {
  UNAUTHENTICATED: [401, ERROR_BODIES.unauthenticated],
  SESSION_EXPIRED: [401, ERROR_BODIES.sessionExpired],
  FORBIDDEN: [403, ERROR_BODIES.forbidden],
  NOT_FOUND: [404, ERROR_BODIES.notFound],
  TOO_MANY_REQUESTS: [429, ERROR_BODIES.tooManyRequests],
} as const;

function fieldPath(instancePath: string): string {
  return instancePath.replace(/^\//, '').replaceAll('/', '.');
}

/** The one place errors become HTTP answers (docs/api.md §1.3). */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const errors = error.validation.map((issue) => ({
        msg: issue.message,
        path: fieldPath(issue.instancePath),
      }));
      return reply.status(400).send({ errors });
    }
    if (error instanceof AppError) {
      const [status, body] = BODY_BY_CODE[error.code];
      return reply.status(status).send(body);
    }
    if (error instanceof InvalidInput) {
      return reply.status(400).send({ errors: [{ msg: error.message, path: error.path }] });
    }
    if (error instanceof RuleViolation) {
      return reply.status(409).send({ ...error.details, success: false, msg: error.message });
    }
    if (error instanceof Refusal) {
      return reply.status(error.statusCode).send({ error: error.message });
    }
    if (error.statusCode === 429) {
      return reply.status(429).send(ERROR_BODIES.tooManyRequests);
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.status(400).send({ errors: [{ msg: 'The request body is not valid JSON.', path: '' }] });
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ errors: [{ msg: 'The request body must be JSON.', path: '' }] });
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ errors: [{ msg: 'The request body is too large.', path: '' }] });
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return reply
        .status(error.statusCode)
        .send({ errors: [{ msg: 'The request is not valid.', path: '' }] });
    }
    // Unexpected: log the details, never send them.
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(ERROR_BODIES.internal);
  });
}
