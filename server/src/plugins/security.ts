import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** Public reference lists (no patient data) may be kept briefly by browsers and shared caches. */
export const PUBLIC_LIST_CACHE = 'public, max-age=60';

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
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
  });
  app.addHook('onSend', async (request, reply) => {
    if (request.protocol === 'https') {
      void reply.header('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    }
    // API answers carry patient data unless a route says otherwise: no browser or proxy may keep
    // a copy. Public routes (reference lists, staff pictures) set their own Cache-Control.
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      void reply.header('Cache-Control', 'no-store');
    }
  });
}
