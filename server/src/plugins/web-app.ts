import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { ERROR_BODIES } from '@ra/shared';

/**
 * Build files that are never served by their own names: source maps (they would publish the
 * source), the build manifest under .vite/, and the .br/.gz variants, which are sent only as the
 * encoding of their original file so that caches see one URL with `Vary: Accept-Encoding`.
 */
const HIDDEN_FILE = /\.(map|br|gz)$|(^|\/)\.vite(\/|$)/;

/** The build's copy of index.html with the landing page already rendered into it. */
const LANDING_PAGE = 'landing.html';
/**
 * Copies of index.html for pages opened by their address, each preloading its page's code
 * (web/vite-plugins/page-shell.ts): `pages/<name>.html` is sent for `/<name>`.
 */
const PAGE_SHELLS_DIR = 'pages';

/** The page shells the build made, by address (`/imageview` → `pages/imageview.html`). */
function pageShellsIn(distDir: string): Map<string, string> {
  const dir = path.join(distDir, PAGE_SHELLS_DIR);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.html')) : [];
  return new Map(names.map((name) => [`/${name.slice(0, -'.html'.length)}`, `${PAGE_SHELLS_DIR}/${name}`]));
}

function isHiddenFile(pathname: string): boolean {
  return HIDDEN_FILE.test(pathname);
}

/** A request for a build file (hidden or missing) gets a 404, never the page shell. */
function isFileRequest(pathname: string): boolean {
  return pathname.startsWith('/assets/') || isHiddenFile(pathname);
}

function decodedPathname(url: string): string {
  const pathname = url.split('?', 1)[0]!;
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/**
 * Serves the built web app. Hashed assets are cached for a year; index.html is revalidated, and
 * any non-API GET that matches no file gets index.html so client routes survive a reload (`/`
 * gets the prerendered landing page when the build made one). Each file is sent as its
 * precompressed .br or .gz sibling when the client accepts that encoding.
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
    preCompressed: true,
    // The path is checked as requested, before a .br/.gz variant is picked.
    allowedPath: (pathname) => !isHiddenFile(pathname),
    setHeaders: (res, filePath) => {
      const isHashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', isHashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      // The body depends on Accept-Encoding, so a shared cache must not hand brotli to a client without it.
      res.setHeader('Vary', 'Accept-Encoding');
    },
  });
  // The landing page prerendered by the web build, for `/` only: other addresses get the plain
  // shell, so they never flash the landing page before their own.
  const homePage = fs.existsSync(path.join(distDir, LANDING_PAGE)) ? LANDING_PAGE : 'index.html';
  app.get('/', (_request, reply) => reply.sendFile(homePage));
  const pageShells = pageShellsIn(distDir);
  app.setNotFoundHandler((request, reply) => {
    const pathname = decodedPathname(request.url);
    const isService =
      pathname.startsWith('/api/') || pathname === '/dicomweb' || pathname.startsWith('/dicomweb/');
    const isPage = request.method === 'GET' && !isService && !isFileRequest(pathname);
    if (!isPage) {
      return reply.status(404).send(ERROR_BODIES.notFound);
    }
    return reply.header('Cache-Control', 'no-cache').sendFile(pageShells.get(pathname) ?? 'index.html');
  });
}
