/** The constraint a unique violation hit (PostgreSQL code 23505), looking through driver wrappers. */
export function uniqueViolationOf(err: unknown): string | undefined {
  for (let current: unknown = err; current; current = (current as { cause?: unknown }).cause) {
    const e = current as { code?: unknown; constraint?: unknown };
    if (e.code === '23505') {
      return typeof e.constraint === 'string' ? e.constraint : '';
    }
  }
  return undefined;
}
