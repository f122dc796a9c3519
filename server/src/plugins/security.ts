import type { FastifyInstance } from 'fastify';

/**
 * Public reference lists (no patient data) may be stored by browsers and shared caches, but are
 * revalidated on every use (a 304 by ETag), so an addition shows at once.
 */
export const PUBLIC_LIST_CACHE = 'public, no-cache';

/**
 * The headers of pages and their assets (HTML, scripts, styles, the viewer's workers): the set
 * helmet 8 sends with its defaults, written out once, since none depends on the request. Only the
 * content security policy, the referrer policy and the absence of HSTS (added below for https
 * requests) and of Cross-Origin-Embedder-Policy differ from helmet's defaults.
 */
const DOCUMENT_HEADERS: [string, string][] = [
  [
    'Content-Security-Policy',
    [
      "default-src 'self'",
      // The viewer's image decoders (JPEG 2000, JPEG-LS, HTJ2K, JPEG) are WebAssembly, compiled in
      // its workers, which take this policy from their scripts' answers. 'wasm-unsafe-eval' allows
      // compiling WebAssembly and nothing else: eval and inline scripts stay forbidden.
      "script-src 'self' 'wasm-unsafe-eval'",
      // React and Bootstrap set inline style attributes (positions, progress widths); no inline scripts.
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
    ].join(';'),
  ],
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Origin-Agent-Cluster', '?1'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-DNS-Prefetch-Control', 'off'],
  ['X-Download-Options', 'noopen'],
  ['X-Frame-Options', 'SAMEORIGIN'],
  ['X-Permitted-Cross-Domain-Policies', 'none'],
  ['X-XSS-Protection', '0'],
];

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
  app.addHook('onRequest', (request, reply, done) => {
    // On the raw response, so answers that tus writes itself carry them too.
    const isApi = API_PATH.test(request.url) && !API_DOCS_PAGE.test(request.url);
    for (const [name, value] of isApi ? API_HEADERS : DOCUMENT_HEADERS) {
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
