/**
 * What a logged error may say. Database errors carry the query's parameters (emails, names,
 * notes, password hashes) in their message and `detail`; those never reach the log.
 */
interface LoggedError {
  type: string;
  message: string;
  stack: string;
  code?: string;
  [key: string]: unknown;
}

/** Fields of PostgreSQL errors that name the schema, never the data. */
const SAFE_DB_FIELDS = ['code', 'severity', 'constraint', 'table', 'column', 'routine'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** Stack frames only: the first stack line repeats the message. */
function framesOf(stack: unknown): string {
  if (typeof stack !== 'string') {
    return '';
  }
  return stack
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .join('\n');
}

/** A value in a database message (`… syntax for type uuid: "x"`) is cut off at the colon. */
function withoutValues(message: string): string {
  return message.replace(/:\s*["'(].*$/s, ': [redacted]');
}

function isDatabaseError(err: Record<string, unknown>): boolean {
  return (
    'params' in err ||
    ('severity' in err && 'code' in err) ||
    (typeof err.message === 'string' && err.message.startsWith('Failed query:'))
  );
}

export function serializeError(err: unknown): LoggedError {
  if (!isRecord(err)) {
    return { type: typeof err, message: String(err), stack: '' };
  }
  const type = err instanceof Error ? err.constructor.name : 'Object';
  const message = typeof err.message === 'string' ? err.message : '';
  if (!isDatabaseError(err)) {
    const logged: LoggedError = { type, message, stack: typeof err.stack === 'string' ? err.stack : '' };
    if (typeof err.code === 'string') {
      logged.code = err.code;
    }
    if (err.cause !== undefined) {
      logged.cause = serializeError(err.cause);
    }
    return logged;
  }
  const logged: LoggedError = {
    type,
    message: message.startsWith('Failed query:')
      ? `Failed query: ${typeof err.query === 'string' ? err.query : ''}`
      : withoutValues(message),
    stack: framesOf(err.stack),
  };
  for (const field of SAFE_DB_FIELDS) {
    if (typeof err[field] === 'string') {
      logged[field] = err[field];
    }
  }
  if (err.cause !== undefined) {
    logged.cause = serializeError(err.cause);
  }
  return logged;
}

/** A share link's token opens the link: its paths (`/s/<token>`, `/api/s/<token>/…`) are logged without it. */
export function withoutShareToken(path: string): string {
  return path.replace(/^(\/api)?\/s\/[^/]+/, '$1/s/[token]');
}
