import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { pageShell } from './vite-plugins/page-shell.ts';
import { precompress } from './vite-plugins/precompress.ts';
import { prerenderPage } from './vite-plugins/prerender-page.ts';

/**
 * Node built-ins that bundled libraries import for code the browser never runs. Vite replaces each
 * with an empty module and says so once per import (18 lines a build); these are expected:
 * - the cornerstone codecs' Emscripten wrappers read their .wasm with `fs` and `path` only under
 *   Node (`ENVIRONMENT_IS_NODE`); in the browser they fetch it;
 * - @oozcitak/url (xmlbuilder2's DOM, under vtk.js) calls `url.domainToASCII` only to parse a URL's
 *   host; xmlbuilder2 is reached through cornerstone's mesh loader and orientation marker, which
 *   the viewer does not use.
 * Any other module, or the same module imported from anywhere else, is still reported.
 */
const EXPECTED_BROWSER_EXTERNALS = [
  { modules: ['fs', 'path'], importer: /\/node_modules\/@cornerstonejs\/codec-[^/]+\/dist\/[^/]+\.js$/ },
  { modules: ['url'], importer: /\/node_modules\/@oozcitak\/url\/lib\/URLAlgorithm\.js$/ },
];
const EXTERNALIZED =
  /^Module "([^"]+)" has been externalized for browser compatibility, imported by "([^"]+)"/;

function isExpectedBrowserExternal(message: string): boolean {
  const [, module, importer] = EXTERNALIZED.exec(message) ?? [];
  return EXPECTED_BROWSER_EXTERNALS.some(
    (expected) => expected.modules.includes(module!) && expected.importer.test(importer!),
  );
}

export default defineConfig({
  plugins: [
    react(),
    // The server sends landing.html for `/`: the landing page paints before the scripts arrive.
    prerenderPage({
      render: 'src/prerender/landing-page-markup.tsx',
      page: 'src/features/landing/pages/LandingPage.tsx',
      output: 'landing.html',
    }),
    // The server sends pages/imageview.html for an item's page: its code and, for a study, the
    // diagnostic viewer's start downloading with the app's entry (a link opened from an email).
    pageShell({
      name: 'imageview',
      modules: ['src/features/images/pages/ImageViewPage.tsx', 'src/viewer/components/DiagnosticViewer.tsx'],
    }),
    precompress(),
  ],
  // @ra/shared's source, by the `paths` of tsconfig.base.json (its package exports name the
  // compiled shared/dist, for plain Node).
  resolve: { tsconfigPaths: true },
  css: {
    preprocessorOptions: {
      scss: {
        // Bootstrap 5.3's SCSS predates the Sass module system: its warnings are not ours to fix.
        quietDeps: true,
        silenceDeprecations: ['import', 'global-builtin', 'color-functions', 'if-function'],
      },
    },
  },
  // The viewer's image decoders run in module workers.
  worker: { format: 'es', rolldownOptions: { checks: { bundlerTimings: false } } },
  optimizeDeps: {
    // The codecs are CommonJS WASM wrappers that the dev server must pre-bundle (the build does
    // not need this).
    include: [
      '@cornerstonejs/codec-charls/decodewasmjs',
      '@cornerstonejs/codec-libjpeg-turbo-8bit/decodewasmjs',
      '@cornerstonejs/codec-openjpeg/decodewasmjs',
      '@cornerstonejs/codec-openjph/wasmjs',
    ],
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/dicomweb': 'http://localhost:3000' },
  },
  build: {
    outDir: 'dist',
    // Source maps stay out of the deployable files unless asked for (WEB_SOURCEMAP=1).
    sourcemap: process.env.WEB_SOURCEMAP === '1',
    // dist/.vite/manifest.json maps each source module to its chunks; the bundle budget reads it.
    manifest: true,
    // The diagnostic viewer's chunk (Cornerstone3D, ~3.7 MB) loads only when a study is opened;
    // `npm run budget` holds every chunk to its own limit, so the generic 500 kB warning is moot.
    chunkSizeWarningLimit: 4_096,
    rolldownOptions: {
      // How long plugins took is noise on a busy 2-core machine, not something to act on.
      checks: { bundlerTimings: false },
      onLog(level, log, report) {
        if (log.plugin === 'rolldown:vite-resolve' && isExpectedBrowserExternal(log.message)) {
          return;
        }
        report(level, log);
      },
      output: {
        codeSplitting: {
          groups: [
            {
              // The small modules of the UI libraries every page uses go in one chunk: split by
              // page they made a dozen requests of a few hundred bytes, each with a kilobyte of
              // headers. Larger ones stay with the pages that use them.
              name: 'ui-basics',
              test: /[\\/]node_modules[\\/](react-bootstrap|@restart|dom-helpers|@tanstack[\\/]react-query|uncontrollable|prop-types|classnames|warning|invariant)[\\/]/,
              maxModuleSize: 3_000,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
  },
});
