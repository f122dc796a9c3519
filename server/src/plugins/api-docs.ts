import fs from 'node:fs';
import { STATUS_CODES } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fastifySwagger, { type SwaggerTransform } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { toRoleName } from '@ra/shared';
import { z } from 'zod';
import { rolesOfGuard } from './auth.js';

/** The OpenAPI document and its reference page (docs/api.md §1.4), both behind API_DOCS. */
export const OPENAPI_PATH = '/api/openapi.json';
export const DOCS_PATH = '/api/docs';

/**
 * The parts of a route's description that Fastify must not enforce, because the handler reads them
 * itself: a body Fastify never parses (streamed DICOM, tus bytes, a signed webhook), a query string
 * with open-ended keys (QIDO-RS matching), a signed URL's parameters. Only the OpenAPI document sees
 * them; Fastify neither validates nor strips anything by them.
 */
export interface DocumentedOnly {
  querystring?: z.ZodType;
  body?: z.ZodType;
  headers?: z.ZodType;
}

declare module 'fastify' {
  interface FastifySchema {
    documentedOnly?: DocumentedOnly;
  }
}

/** A success answer whose body is not JSON, described by its media types. */
interface NonJsonResponse {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
}

/**
 * A success answer that is not JSON (a file, an image, DICOM, multipart/related), for a route's
 * `response`. Fastify compiles a serializer per media type, which it would use only for an object
 * sent with that type and status; these routes never send one: their bodies are buffers, streams
 * or ready-made text, which Fastify writes as they are.
 */
export function nonJsonResponse(
  description: string,
  mediaTypes: readonly string[],
  schema: z.ZodType = z.unknown(),
): NonJsonResponse {
  return { description, content: Object.fromEntries(mediaTypes.map((type) => [type, { schema }])) };
}

/** OpenAPI header objects of an answer, by header name. */
export type ResponseHeaders = Record<string, { description: string; schema: { type: 'string' | 'integer' } }>;

/**
 * An answer without a body (204, 304, most tus answers), with the headers that carry its news.
 * `undefined`: what the handler sends (nothing); the document shows it as a body-less answer.
 */
export function emptyResponse(description: string, headers?: ResponseHeaders) {
  return z.undefined().meta(headers ? { description, headers } : { description });
}

/** The tags of the reference, in its order: one per route module. */
export const API_TAGS = [
  { name: 'Health', description: 'Whether the server and its database answer (§3).' },
  { name: 'Identity', description: 'Sign-up, sign-in, sessions, email links and password reset (§4, §5).' },
  { name: 'Two-factor sign-in', description: 'TOTP set-up and sign-in (§6).' },
  { name: 'Hospitals', description: 'Reference list of hospitals (§7.1).' },
  { name: 'Users', description: 'The signed-in user and the public radiologist lists (§7.2, §7.3, §8.1).' },
  {
    name: 'Profile',
    description: "The caller's profile, address and the staff's public pictures (§7.4, §8).",
  },
  { name: 'Patients', description: "A physician's patients (§9)." },
  { name: 'Images', description: 'Archive items and notes (§10).' },
  { name: 'Uploads', description: 'Resumable uploads, tus 1.0 (§11.1).' },
  { name: 'Files', description: 'Stored files behind signed URLs (§11.3).' },
  { name: 'Studies', description: 'Filing uploaded DICOM files (§12.1).' },
  { name: 'Downloads', description: "An item or a patient's whole archive as a ZIP (§12.4)." },
  { name: 'Incoming', description: "Studies received by STOW-RS waiting in a physician's list (§12.3)." },
  { name: 'DICOM nodes', description: "A physician's DICOM nodes and sending studies to them (§12.6)." },
  { name: 'DICOMweb', description: 'QIDO-RS, WADO-RS and STOW-RS at /dicomweb (§13).' },
  { name: 'Annotations', description: 'Measurements and marks drawn on an item (§15).' },
  { name: 'Payments', description: 'Second opinions, invoices and payment (§16).' },
  { name: 'Ratings', description: 'Rating a radiologist (§17).' },
  { name: 'Notifications', description: 'Polling and reading notifications (§18).' },
  { name: 'Audit', description: "Who accessed a patient's records (§19)." },
  { name: 'Shares', description: 'Share links: one item opened without an account (§20).' },
] as const;

/** The security scheme of the bearer token that `requireUser` routes take (docs/api.md §1.1). */
const BEARER = 'bearer';
/** The session cookie (`ra_session`, identity.routes.ts) of /api/auth/refresh and /api/auth/signout. */
export const SESSION_COOKIE_SECURITY = [{ sessionCookie: [] }] as const;

/** A route URL as the document's path: `:name` becomes `{name}`, a final wildcard `{path}`. */
export function openApiPathOf(url: string): string {
  return url.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{path}');
}

function isZodSchema(value: unknown): value is z.ZodType {
  return value instanceof z.core.$ZodType;
}

type JsonObject = Record<string, unknown>;

/** What Fastify's schema for one route becomes in the document, through the zod type provider's transform. */
const transform: SwaggerTransform = (input) => {
  const { schema, route } = input;
  // Wildcards are named `*` in Fastify, `path` in the document.
  const url = input.url.replace(/\*$/, ':path');
  if (!schema) {
    return { schema, url };
  }
  const { documentedOnly, response, ...rest } = schema;
  const zodResponses: Record<string, z.ZodType> = {};
  const nonJson: Record<string, NonJsonResponse> = {};
  for (const [status, entry] of Object.entries((response ?? {}) as Record<string, unknown>)) {
    if (isZodSchema(entry)) {
      zodResponses[status] = entry;
    } else {
      nonJson[status] = entry as NonJsonResponse;
    }
  }
  for (const part of Object.keys(documentedOnly ?? {}) as (keyof DocumentedOnly)[]) {
    if (rest[part] !== undefined) {
      throw new Error(`${route.url}: ${part} is both enforced and documented only`);
    }
  }
  const result = jsonSchemaTransform({
    ...input,
    url,
    schema: { ...rest, ...documentedOnly, ...(response ? { response: zodResponses } : {}) },
  });
  const out = result.schema as JsonObject;
  const responses = (out.response ?? {}) as Record<string, JsonObject>;
  for (const [status, entry] of Object.entries(responses)) {
    if (!entry.description && !entry['x-response-description']) {
      entry['x-response-description'] = STATUS_CODES[Number(status)] ?? status;
    }
  }
  for (const [status, entry] of Object.entries(nonJson)) {
    const content: Record<string, { schema: unknown }> = {};
    for (const [type, { schema: body }] of Object.entries(entry.content)) {
      const converted = jsonSchemaTransform({ ...input, url, schema: { response: { [status]: body } } });
      content[type] = { schema: (converted.schema.response as JsonObject)[status] };
    }
    responses[status] = { description: entry.description, content };
  }
  if (response) {
    out.response = responses;
  }
  renameWildcard(out.params as JsonObject | undefined);
  const roles = [route.preHandler ?? []]
    .flat()
    .map((handler) => rolesOfGuard(handler))
    .find((found) => found !== undefined);
  if (roles) {
    out.security = [{ [BEARER]: [] }];
    const who =
      roles.length === 0
        ? 'Signed in (bearer token).'
        : `Signed in as ${roles.map((role) => toRoleName(role)).join(' or ')} (bearer token).`;
    out.description = typeof out.description === 'string' ? `${who}\n\n${out.description}` : who;
  }
  return { schema: out, url };
};

function renameWildcard(params: JsonObject | undefined): void {
  const properties = params?.properties as JsonObject | undefined;
  if (!params || !properties || !('*' in properties)) {
    return;
  }
  properties.path = properties['*'];
  delete properties['*'];
  if (Array.isArray(params.required)) {
    params.required = (params.required as unknown[]).map((name) => (name === '*' ? 'path' : name));
  }
}

function serverVersion(): string {
  const packageJson = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return packageJson.version;
}

/**
 * Collects every route registered after it for the OpenAPI document. Must run before the routes
 * are registered; `serveApiDocs` then serves the document and the reference page.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Radiology Archive API',
        version: serverVersion(),
        description:
          'Generated from the routes and their zod schemas. The reference with every rule and error ' +
          'sentence is docs/api.md; section numbers (§) point there.',
      },
      tags: API_TAGS.map((tag) => ({ ...tag })),
      components: {
        securitySchemes: {
          [BEARER]: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          sessionCookie: { type: 'apiKey', in: 'cookie', name: 'ra_session' },
        },
      },
    },
    transform,
  });
}

/** Serves the document at OPENAPI_PATH and the reference page (Swagger UI) at DOCS_PATH. */
export async function serveApiDocs(app: FastifyInstance): Promise<void> {
  app.get(OPENAPI_PATH, { schema: { hide: true } }, () => app.swagger());
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PATH,
    // Only what the page needs from the network is its own origin: no validator badge.
    validatorUrl: false,
    uiConfig: { deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
  });
}
