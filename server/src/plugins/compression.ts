import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';

/**
 * Routes whose answers are never compressed: sign-in and account answers carry tokens beside
 * what the caller sent (a compression side channel, BREACH, could reveal them); stored files are
 * already compressed images and are served in byte ranges; tus writes its own answers.
 */
const UNCOMPRESSED_PREFIXES = ['/api/auth/', '/api/files/', '/api/uploads'];

/** JSON and text answers over 1 KB go out as brotli or gzip when the client accepts them. */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook, which reads `compress` from the route.
  app.addHook('onRoute', (route) => {
    if (UNCOMPRESSED_PREFIXES.some((prefix) => route.url.startsWith(prefix))) {
      route.compress = false;
    }
  });
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    // Request bodies are taken as sent: inflating them would let a small upload expand past the body limit.
    globalDecompression: false,
    brotliOptions: {
      params: {
        // Quality 4 compresses JSON well at a small fraction of the cost of the maximum.
        [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    },
  });
}
