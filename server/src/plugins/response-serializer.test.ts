import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { imagePageSchema, meSchema } from '@ra/shared';
import { responseSerializerCompiler } from './response-serializer.js';

function compile(schema: z.ZodType) {
  return responseSerializerCompiler({ schema, method: 'GET', url: '/test', httpStatus: '200' });
}

const item = z.object({
  uid: z.string(),
  read: z.union([z.literal(0), z.literal(1)]),
  to: z.string().nullable(),
  note: z.string().optional(),
  tags: z.array(z.object({ name: z.string() })),
});

describe('responseSerializerCompiler', () => {
  it('writes what the zod schema would give, nulls and optional fields included', () => {
    const stringify = compile(z.array(item));
    const data = [
      { uid: 'a', read: 1, to: null, tags: [{ name: 'x' }] },
      { uid: 'b', read: 0, to: '/x', note: 'n', tags: [] },
    ];
    expect(JSON.parse(stringify(data))).toEqual(z.array(item).parse(data));
  });

  it('never writes a property the schema does not declare, however deep', () => {
    const stringify = compile(item);
    const out = JSON.parse(
      stringify({ uid: 'a', read: 1, to: null, passwordHash: 'secret', tags: [{ name: 'x', email: 'e' }] }),
    );
    expect(out).toEqual({ uid: 'a', read: 1, to: null, tags: [{ name: 'x' }] });
  });

  it('refuses to write an answer that lacks a required field', () => {
    expect(() => compile(item)({ read: 1, to: null, tags: [] })).toThrow();
  });

  it("compiles the app's own response schemas", () => {
    const me = compile(meSchema);
    const page = compile(imagePageSchema);
    expect(JSON.parse(page({ images: [], next_cursor: null }))).toEqual({ images: [], next_cursor: null });
    expect(typeof me).toBe('function');
  });
});
