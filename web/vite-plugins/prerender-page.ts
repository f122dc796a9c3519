import fs from 'node:fs/promises';
import path from 'node:path';
import { runnerImport, type Plugin } from 'vite';

interface PrerenderOptions {
  /** A module exporting `render(): string`, the page's markup (run in Node at build time). */
  render: string;
  /** The page's own module, whose chunk and imports are preloaded. */
  page: string;
  /** The HTML file to write next to index.html. */
  output: string;
}

const STYLESHEET = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g;
const SCRIPTS =
  /<script type="module" crossorigin src="[^"]+"><\/script>|<link rel="modulepreload" crossorigin href="[^"]+">/g;
const ROOT = '<div id="root"></div>';

function replaceOnce(html: string, search: string, replacement: string): string {
  if (!html.includes(search)) {
    throw new Error(`prerender: index.html has no ${search}`);
  }
  return html.replace(search, () => replacement);
}

/**
 * Writes a copy of index.html with one page's markup already in it, which the server sends for
 * that page's address so it paints before any script runs. The app renders into the hidden #root
 * and takes the copy's place once it shows a page (src/app/prerendered-page.ts). The stylesheet
 * is inlined, so the first paint waits for no other request, and the scripts move to the end of
 * the body, so they start downloading only after the page's HTML and CSS have arrived; the page's
 * own chunk is preloaded with them.
 */
export function prerenderPage(options: PrerenderOptions): Plugin {
  let root = '';
  return {
    name: 'ra:prerender-page',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    writeBundle: {
      sequential: true,
      async handler(output, bundle) {
        const outDir = output.dir!;
        const pageModule = path.resolve(root, options.page);
        const pageChunk = Object.values(bundle).find(
          (file) => file.type === 'chunk' && file.facadeModuleId === pageModule,
        );
        if (!pageChunk || pageChunk.type !== 'chunk') {
          throw new Error(`prerender: no chunk for ${options.page}`);
        }
        const { module } = await runnerImport<{ render: () => string }>(path.resolve(root, options.render), {
          configFile: false,
          root,
          // @ra/shared's source, as in the build (vite.config.ts).
          resolve: { tsconfigPaths: true },
          logLevel: 'error',
        });
        let html = await fs.readFile(path.join(outDir, 'index.html'), 'utf8');
        for (const [link, file] of [...html.matchAll(STYLESHEET)]) {
          const css = await fs.readFile(path.join(outDir, file!), 'utf8');
          html = replaceOnce(html, link, `<style>${css}</style>`);
        }
        const scripts = [...html.matchAll(SCRIPTS)].map(([tag]) => tag);
        html = html.replace(SCRIPTS, '').replace(/\n\s*\n/g, '\n');
        for (const file of [pageChunk.fileName, ...pageChunk.imports]) {
          if (!scripts.some((tag) => tag.includes(`"/${file}"`))) {
            scripts.push(`<link rel="modulepreload" crossorigin href="/${file}">`);
          }
        }
        html = replaceOnce(
          html,
          ROOT,
          `<div id="prerendered-page">${module.render()}</div>\n    <div id="root" hidden></div>\n    ${scripts.join('\n    ')}`,
        );
        await fs.writeFile(path.join(outDir, options.output), html);
      },
    },
  };
}
