import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ERROR_BODIES } from '@ra/shared';

/**
 * Serves the built web app. Hashed assets are cached for a year; index.html is revalidated, and
 * any non-API GET that matches no file gets index.html so client routes survive a reload.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string | undefined): Promise<void> {
  if (!distDir || !fs.existsSync(path.join(distDir, 'index.html'))) {
    if (distDir) {
      app.log.warn({ distDir }, 'web app not built; run `npm run build` to serve it');
    }
    app.setNotFoundHandler((_request, reply) => reply.status(404).send(ERROR_BODIES.notFound));
    return;
  }
  await app.register(fastifyStatic, {
    root: distDir,
    index: ['index.html'],
    cacheControl: false,
    wildcard: true,
    setHeaders: (res, filePath) => {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !request.url.startsWith('/api/');
    if (!isPage) {
      return reply.status(404).send(ERROR_BODIES.notFound);
    }
    return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  });
}
