import type { FastifyBaseLogger } from 'fastify';
import { Server } from '@tus/server';
import { ERROR_BODIES } from '@ra/shared';

/** What tus expects thrown from a hook: a status and the body to answer with. */
export class TusRefusal extends Error {
  constructor(
    readonly status_code: number,
    readonly body: string,
  ) {
    super(body);
    this.name = 'TusRefusal';
  }
}

/** A refusal in the contract's 400-style shape (docs/api.md §1.3), with its own status. */
export function refusal(status: number, message: string) {
  return new TusRefusal(status, JSON.stringify({ errors: [{ msg: message, path: 'upload' }] }));
}

type TusAnswer = { status_code: number; body: string };

const invalid = (message: string): TusAnswer => ({
  status_code: 400,
  body: JSON.stringify({ errors: [{ msg: message, path: 'upload' }] }),
});

/** tus' own protocol errors (plain `{status_code, body}` objects), by status, in the contract's shapes. */
function protocolAnswer(status: number): TusAnswer | undefined {
  switch (status) {
    case 404:
    case 410:
      return { status_code: 404, body: JSON.stringify(ERROR_BODIES.notFound) };
    case 409:
      // tus requires 409 for an offset mismatch and clients rely on it; the body takes the
      // contract's 409 shape (a refused action, with a sentence) rather than a 400 field error.
      return {
        status_code: 409,
        body: JSON.stringify({
          success: false,
          msg: 'The upload offset does not match the bytes received so far. Ask for the current offset and resume from there.',
        }),
      };
    case 413:
      return { ...invalid('The file is too large.'), status_code: 413 };
    case 412:
      return { ...invalid('The Tus-Resumable header must be 1.0.0.'), status_code: 412 };
    case 501:
      // Deferred length and concatenation are not offered (see Tus-Extension).
      return invalid('This kind of upload is not supported.');
    default:
      // tus answers missing or malformed tus headers with 400 or 403; neither is about permissions.
      return status >= 400 && status < 500 ? invalid('The upload request is not valid.') : undefined;
  }
}

function isProtocolError(err: unknown): err is TusAnswer {
  return (
    typeof err === 'object' &&
    err !== null &&
    !(err instanceof Error) &&
    typeof (err as TusAnswer).status_code === 'number'
  );
}

/**
 * What the logs get of an unexpected error. A failed query's message and `params` carry SQL
 * parameters (file names, ids), so of a database error only its kind and SQLSTATE are kept.
 */
export function loggableError(err: unknown): Record<string, unknown> {
  for (let current: unknown = err; current; current = (current as { cause?: unknown }).cause) {
    if (typeof current === 'object' && ('params' in current || 'severity' in current)) {
      const cause = (err as { cause?: { code?: unknown } }).cause;
      return {
        type: (err as Error).name,
        sqlState: (current as { code?: unknown }).code ?? cause?.code,
        table: (current as { table?: unknown }).table,
      };
    }
  }
  return err instanceof Error
    ? { type: err.name, message: err.message, stack: err.stack }
    : { value: String(err) };
}

/** tus' `onResponseError`: our refusals pass; tus' errors get contract bodies; anything else is a logged 500. */
export function contractAnswerFor(err: unknown, log: FastifyBaseLogger): TusAnswer {
  if (err instanceof TusRefusal) {
    return { status_code: err.status_code, body: err.body };
  }
  if (isProtocolError(err)) {
    const answer = protocolAnswer(err.status_code);
    if (answer) {
      return answer;
    }
  }
  log.error({ err: loggableError(err) }, 'upload request failed');
  return { status_code: 500, body: JSON.stringify(ERROR_BODIES.internal) };
}

function isContractBody(body: string): boolean {
  try {
    const parsed = JSON.parse(body) as Record<string, unknown>;
    return typeof parsed.error === 'string' || Array.isArray(parsed.errors) || parsed.success === false;
  } catch {
    return false;
  }
}

/**
 * The tus server, whose every error answer is JSON in the contract's shapes. `onResponseError`
 * maps errors thrown inside tus; a few answers (412 without Tus-Resumable, 400 for a malformed tus
 * header) are written directly by tus with a plain-text body, so `write` is the last gate.
 */
export class ContractTusServer extends Server {
  override write(...[context, headers, status, body = '']: Parameters<Server['write']>) {
    let answer = body;
    if (status >= 400) {
      if (!isContractBody(answer)) {
        answer = (protocolAnswer(status) ?? { body: JSON.stringify(ERROR_BODIES.internal) }).body;
      }
      headers.set('Content-Type', 'application/json; charset=utf-8');
      headers.set('Cache-Control', 'no-store');
    }
    if (status === 412) {
      headers.set('Tus-Version', '1.0.0');
    }
    if (status === 429) {
      // The creation-rate window is one minute; pending uploads free up as they finish.
      headers.set('Retry-After', '60');
    }
    return super.write(context, headers, status, answer);
  }
}
