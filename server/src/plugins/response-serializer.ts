import type { FastifyReply, FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';

/**
 * Compiles each route's zod response schema into a JSON serializer (fast-json-stringify) once, at
 * start. Like the schema, it writes only the declared properties, so a field a query happens to
 * return never leaks; unlike parsing every answer with zod first, it costs little per request.
 */
export const responseSerializerCompiler: FastifySerializerCompiler<z.ZodType> = ({ schema }) => {
  const jsonSchema = z.toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' });
  const stringify = fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  return (data: unknown) => stringify(data);
};

/** The JSON of values sent before: cached answers (an image list page) are serialized once. */
const serializedBodies = new WeakMap<object, Buffer>();

/**
 * Sends `value` as the route's JSON for status 200, serialized by the route's response schema
 * the first time and reused whenever the same object is sent again. Only for values that never
 * change once built (a cache's entries) and that only this route sends.
 */
export function sendSerializedOnce(reply: FastifyReply, value: object): FastifyReply {
  let body = serializedBodies.get(value);
  if (body === undefined) {
    const json = reply.serialize(value);
    body = typeof json === 'string' ? Buffer.from(json) : Buffer.from(json as ArrayBuffer);
    serializedBodies.set(value, body);
  }
  return reply.type('application/json; charset=utf-8').send(body);
}
