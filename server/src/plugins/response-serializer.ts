import type { FastifySerializerCompiler } from 'fastify';
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
