import type { FastifyReply } from 'fastify';
import { DECODE_RETRY_AFTER_SECONDS, DecodeBusy, DecodeOverLimit } from '../dicom/index.js';
import { DicomReadError, PREVIEW_MESSAGES, READ_LIMIT_MESSAGES } from '../dicom/index.js';
import { FramesTooLarge } from '../dicom/index.js';

const OVER_BOUNDS: ReadonlySet<string> = new Set([
  PREVIEW_MESSAGES.tooLarge,
  READ_LIMIT_MESSAGES.inflatesTooLarge,
  READ_LIMIT_MESSAGES.tooManyElements,
]);

/** Whether a read was refused for going past the bounds set for reading a file (config.ts). */
export function isOverBounds(err: unknown): err is Error {
  return (
    err instanceof DecodeOverLimit ||
    err instanceof FramesTooLarge ||
    (err instanceof DicomReadError && OVER_BOUNDS.has(err.reason))
  );
}

/**
 * Answers a rendering or frame read the decode threads refused: 413 when the file would take more
 * time, memory or pixels than a read may (asking again cannot help), 503 with Retry-After when
 * every thread is busy and the queue is full. Undefined for any other error, left to the caller.
 */
export function sendDecodeRefusal(reply: FastifyReply, err: unknown): FastifyReply | undefined {
  if (err instanceof DecodeBusy) {
    return reply
      .status(503)
      .header('retry-after', String(DECODE_RETRY_AFTER_SECONDS))
      .send({ error: err.message });
  }
  if (isOverBounds(err)) {
    return reply.status(413).send({
      error: `The image is beyond what this server reads: ${err.message.replace(/\.$/, '')}.`,
    });
  }
  return undefined;
}
