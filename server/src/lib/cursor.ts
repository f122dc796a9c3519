import { InvalidInput } from './errors.js';

/** Opaque page cursors: the sort key of the last row, as base64url JSON. */
export function encodeCursor(values: (string | number)[]): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

export function decodeCursor(cursor: string | undefined, length: number): string[] | undefined {
  if (cursor === undefined || cursor === '') {
    return undefined;
  }
  try {
    const values: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(values) && values.length === length && values.every((v) => typeof v === 'string')) {
      return values;
    }
  } catch {
    // Falls through to the refusal below.
  }
  throw new InvalidInput('cursor', 'The cursor is not valid.');
}
