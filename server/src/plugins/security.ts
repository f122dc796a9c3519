import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Public reference lists (no patient data) may be stored by browsers and shared caches, but are
 * revalidated on every use (a 304 by ETag), so an addition shows at once.
 */
export const PUBLIC_LIST_CACHE = 'public, no-cache';

const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      // The viewer's image decoders (JPEG 2000, JPEG-LS, HTJ2K, JPEG) are WebAssembly, compiled in
      // its workers, which take this policy from their scripts' answers. 'wasm-unsafe-eval' allows
      // compiling WebAssembly and nothing else: eval and inline scripts stay forbidden.
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      // React and Bootstrap set inline style attributes (positions, progress widths); no inline scripts.
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // HSTS only makes sense over https; it is added below when the request came that way.
  strictTransportSecurity: false,
  referrerPolicy: { policy: 'no-referrer' },
  crossOriginEmbedderPolicy: false,
};

/**
 * The headers helmet sets with HELMET_OPTIONS, worked out once: they do not depend on the request,
 * and building helmet's middleware for every request cost more than a cached API answer.
 */
function securityHeaders(): [string, string][] {
  const headers = new Map<string, string>();
  const collector = {
    setHeader: (name: string, value: string) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
  };
  helmet(HELMET_OPTIONS)({} as IncomingMessage, collector as unknown as ServerResponse, () => undefined);
  return [...headers];
}

/**
 * The headers of API answers (JSON, files, DICOM): never documents, so they may run and load
 * nothing and be framed nowhere (OWASP's set for REST answers). The document headers above
 * (their CSP for pages, opener and agent-cluster policies, legacy browser switches) do not apply
 * to them and would only weigh on every answer.
 */
const API_HEADERS: [string, string][] = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

const API_PATH = /^\/(api|dicomweb)([/?]|$)/;
/** The API reference (plugins/api-docs.ts) is a page under /api: it gets the pages' headers. */
const API_DOCS_PAGE = /^\/api\/docs([/?]|$)/;

export function registerSecurityHeaders(app: FastifyInstance): void {
  const documentHeaders = securityHeaders();
  app.addHook('onRequest', (request, reply, done) => {
    // On the raw response, so answers that tus writes itself carry them too.
    const isApi = API_PATH.test(request.url) && !API_DOCS_PAGE.test(request.url);
    for (const [name, value] of isApi ? API_HEADERS : documentHeaders) {
      reply.raw.setHeader(name, value);
    }
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.protocol === 'https') {
      void reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    }
    // API answers carry patient data unless a route says otherwise: no browser or proxy may keep
    // a copy. Public routes (reference lists, staff pictures) set their own Cache-Control.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      void reply.header('Cache-Control', 'no-store');
    }
    done(null, payload);
  });
}
