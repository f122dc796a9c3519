import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { imagePageSchema, meSchema } from '@ra/shared';
import Fastify from 'fastify';
import { responseSerializerCompiler, sendSerializedOnce } from './response-serializer.js';

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

describe('sendSerializedOnce', () => {
  it("writes the route's schema once per object and the same bytes after", async () => {
    const app = Fastify();
    app.setSerializerCompiler(responseSerializerCompiler);
    const cached = { uid: 'a', read: 1, to: null, passwordHash: 'secret', tags: [] as { name: string }[] };
    app.get('/once', { schema: { response: { 200: item } } }, (_request, reply) =>
      sendSerializedOnce(reply, cached),
    );
    const first = await app.inject({ method: 'GET', url: '/once' });
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.json()).toEqual({ uid: 'a', read: 1, to: null, tags: [] });
    // A cache's entries never change: a change made anyway is not written again.
    cached.tags.push({ name: 'later' });
    expect((await app.inject({ method: 'GET', url: '/once' })).body).toBe(first.body);
    await app.close();
  });
});
