/**
 * Typed errors thrown by services. The one error handler (plugins/errors.ts) maps each to the
 * wire shapes of docs/api.md §1.3; nothing matches on message text.
 */
export type AppErrorCode =
  'UNAUTHENTICATED' | 'SESSION_EXPIRED' | 'FORBIDDEN' | 'NOT_FOUND' | 'TOO_MANY_REQUESTS';

export class AppError extends Error {
  constructor(readonly code: AppErrorCode) {
    super(code);
    this.name = 'AppError';
  }
}

/** Invalid input that a schema cannot express (400 with `errors[]`). */
export class InvalidInput extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
    this.name = 'InvalidInput';
  }
}

/** A business rule refused the action (409 `{success:false,msg}`, plus `details` when given). */
export class RuleViolation extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'RuleViolation';
  }
}

/**
 * A refusal with its own status and `{error}` body, such as a wrong password (401), portal (403) or
 * a full storage quota (413), a share link that cannot be opened (404), or a check that cannot
 * run for a moment (503).
 */
export class Refusal extends Error {
  constructor(
    readonly statusCode: 401 | 403 | 404 | 413 | 503,
    message: string,
  ) {
    super(message);
    this.name = 'Refusal';
  }
}
