import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { API_TAGS, DOCS_PATH, OPENAPI_PATH, openApiPathOf } from './api-docs.js';

/**
 * Routes that need no schema of their own, each with the reason. Every other route must declare a
 * summary, tags, its path parameters and its success answers, and appear in the document.
 */
const WITHOUT_SCHEMA: Record<string, string> = {
  [`GET ${OPENAPI_PATH}`]: 'the OpenAPI document itself',
  [`GET ${DOCS_PATH}`]: 'the reference page (Swagger UI), not part of the API it describes',
  [`GET ${DOCS_PATH}/json`]: "the reference page's own copy of the document",
  [`GET ${DOCS_PATH}/yaml`]: 'the document as YAML, for the reference page',
  [`GET ${DOCS_PATH}/static/index.html`]: 'the reference page: redirects to it',
  [`GET ${DOCS_PATH}/static/swagger-initializer.js`]: "the reference page's start-up script",
  [`GET ${DOCS_PATH}/static/*`]: "the reference page's scripts, styles and icons",
};

interface RegisteredRoute {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
}

const routes: RegisteredRoute[] = [];
let t: TestApp;
let document: {
  openapi: string;
  tags: { name: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
};

interface OpenApiOperation {
  summary?: string;
  tags?: string[];
  parameters?: { in: string; name: string }[];
  responses: Record<string, unknown>;
}

beforeAll(async () => {
  t = await createTestApp(
    {},
    {
      // A copy of what each route is at registration: Fastify edits the options object afterwards.
      onRoute: (route) => {
        for (const method of [route.method].flat()) {
          routes.push({ method, url: route.url, schema: route.schema });
        }
      },
    },
  );
  const response = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('application/json');
  document = response.json();
});
afterAll(() => t.close());

const keyOf = (route: RegisteredRoute) => `${route.method} ${route.url}`;

/** A prefixed route's `/` is also registered without its slash; the hook hears of one of them. */
const withoutSlash = (url: string) => url.replace(/(.)\/$/, '$1');

/**
 * The routes the document must describe: all but the exceptions and the HEAD routes Fastify adds
 * beside GET routes (same schema as their GET, left out of OpenAPI documents by @fastify/swagger).
 */
function describedRoutes(): RegisteredRoute[] {
  const gets = new Set(
    routes.filter((route) => route.method === 'GET').map((route) => withoutSlash(route.url)),
  );
  return routes.filter(
    (route) =>
      !(keyOf(route) in WITHOUT_SCHEMA) && !(route.method === 'HEAD' && gets.has(withoutSlash(route.url))),
  );
}

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1 with the declared tags', () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.tags.map((tag) => tag.name)).toEqual(API_TAGS.map((tag) => tag.name));
  });

  it('covers the routes of every module', () => {
    // A guard against collecting nothing: the count only grows as routes are added.
    expect(describedRoutes().length).toBeGreaterThan(60);
    for (const url of ['/api/auth/signin', '/api/uploads/:id', '/dicomweb/studies', '/api/files/*']) {
      expect(describedRoutes().some((route) => route.url === url)).toBe(true);
    }
  });

  it('has a schema for every registered route: summary, tags, path parameters, success answers', () => {
    const missing: string[] = [];
    const tagNames = new Set<string>(API_TAGS.map((tag) => tag.name));
    for (const route of describedRoutes()) {
      const schema = route.schema;
      const problems = [
        !schema && 'no schema',
        !schema?.summary && 'no summary',
        !(schema?.tags?.length && schema.tags.every((tag) => tagNames.has(tag))) && 'no known tag',
        /[:*]/.test(route.url) && !schema?.params && 'no params',
        !Object.keys(schema?.response ?? {}).some((status) => /^2/.test(status)) && 'no success response',
      ].filter(Boolean);
      if (problems.length > 0) {
        missing.push(`${keyOf(route)}: ${problems.join(', ')}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('describes every registered route, with its summary, path parameters and success answers', () => {
    const absent: string[] = [];
    for (const route of describedRoutes()) {
      const path = openApiPathOf(route.url);
      const operation = document.paths[path]?.[route.method.toLowerCase()];
      if (!operation) {
        absent.push(keyOf(route));
        continue;
      }
      expect(operation.summary, keyOf(route)).toBe(route.schema?.summary);
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
      const documented = (operation.parameters ?? [])
        .filter((parameter) => parameter.in === 'path')
        .map((parameter) => parameter.name)
        .sort();
      expect(documented, keyOf(route)).toEqual(templated);
      const statuses = Object.keys(route.schema?.response ?? {});
      expect(Object.keys(operation.responses).sort(), keyOf(route)).toEqual(statuses.sort());
    }
    expect(absent).toEqual([]);
  });

  it('lists no route twice and nothing that is not a route', () => {
    const expected = new Set(describedRoutes().map((route) => `${route.method} ${openApiPathOf(route.url)}`));
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(new Set(documented).size).toBe(documented.length);
    expect(documented.sort()).toEqual([...expected].sort());
  });

  it('keeps its exceptions to routes that exist, and out of the document', () => {
    const registered = new Set(routes.map(keyOf));
    for (const key of Object.keys(WITHOUT_SCHEMA)) {
      expect(registered.has(key), key).toBe(true);
      const [, url] = key.split(' ');
      expect(document.paths[openApiPathOf(url!)], key).toBeUndefined();
    }
  });

  it('marks the routes behind sign-in with the bearer scheme and their roles', () => {
    const signIn = document.paths['/api/user/patients']!.get! as OpenApiOperation & {
      security?: unknown;
      description?: string;
    };
    expect(signIn.security).toEqual([{ bearer: [] }]);
    expect(signIn.description).toContain('Signed in as Physician or Radiologist');
    const health = document.paths['/api/health']!.get! as OpenApiOperation & { security?: unknown };
    expect(health.security).toBeUndefined();
  });
});

describe('the API reference page', () => {
  it('answers HTML whose scripts and styles are its own files, under the pages’ policy', async () => {
    const page = await t.app.inject({ method: 'GET', url: DOCS_PATH });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    // The app's policy for pages, as is: scripts from our origin only, no inline script, no eval.
    const policy = new Map(
      String(page.headers['content-security-policy'])
        .split(';')
        .map((directive) => directive.trim().split(/\s+/))
        .map(([name, ...sources]) => [name!, sources]),
    );
    expect(policy.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    // No inline script: every <script> loads a file, so script-src 'self' is enough.
    const scripts = [...page.body.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/src="\/api\/docs\/static\//);
      expect(body!.trim()).toBe('');
    }
    expect(page.body).not.toMatch(/\son\w+=/i);
    const files = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    for (const file of files) {
      const answer = await t.app.inject({ method: 'GET', url: file });
      expect(answer.statusCode, file).toBe(200);
    }
  });

  it('loads the same document as /api/openapi.json', async () => {
    const copy = await t.app.inject({ method: 'GET', url: `${DOCS_PATH}/json` });
    expect(copy.json()).toEqual(document);
  });
});

describe('API_DOCS in production', () => {
  let webDir: string;
  beforeAll(() => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-web-'));
  });
  afterAll(() => fs.rmSync(webDir, { recursive: true, force: true }));

  it('serves neither the document nor the page unless API_DOCS=1', async () => {
    const production = await createTestApp({ NODE_ENV: 'production', WEB_DIST_DIR: webDir });
    try {
      for (const url of [
        OPENAPI_PATH,
        DOCS_PATH,
        `${DOCS_PATH}/json`,
        `${DOCS_PATH}/static/swagger-ui.css`,
      ]) {
        const response = await production.app.inject({ method: 'GET', url });
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ error: 'Not found.' });
      }
    } finally {
      await production.close();
    }
  });

  it('serves both with API_DOCS=1', async () => {
    const production = await createTestApp({ NODE_ENV: 'production', WEB_DIST_DIR: webDir, API_DOCS: '1' });
    try {
      expect((await production.app.inject({ method: 'GET', url: OPENAPI_PATH })).statusCode).toBe(200);
      expect((await production.app.inject({ method: 'GET', url: DOCS_PATH })).statusCode).toBe(200);
    } finally {
      await production.close();
    }
  });
});
