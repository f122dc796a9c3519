import fs from 'node:fs/promises';
import path from 'node:path';
import type { Plugin, Rollup } from 'vite';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/** Where the page shells are written, inside the build's folder; the server reads them from there. */
export const PAGE_SHELLS_DIR = 'pages';

interface PageShellOptions {
  /** The page's address without its slash (`imageview`): the shell is written as `pages/<name>.html`. */
  name: string;
  /** Modules the page loads at once when opened by its address, in the order it needs them. */
  modules: string[];
}

const HEAD_END = '</head>';

/** A chunk and every chunk it imports statically, each once, the chunk itself first. */
function withStaticImports(bundle: OutputBundle, start: OutputChunk): string[] {
  const files: string[] = [];
  const visit = (fileName: string) => {
    const chunk = bundle[fileName];
    if (files.includes(fileName) || !chunk || chunk.type !== 'chunk') {
      return;
    }
    files.push(fileName);
    chunk.imports.forEach(visit);
  };
  visit(start.fileName);
  return files;
}

/**
 * Writes a copy of index.html for one page's address that asks the browser for the page's code
 * and stylesheets at once, beside the app's entry: opened from a link (an email, a key image), the page would
 * otherwise fetch its chunks only after the entry has run and routed, and the diagnostic viewer's
 * 3.7 MB chunk only after the item's details have arrived. The server sends the copy for that
 * address (server/src/plugins/web-app.ts); every other address gets index.html.
 */
export function pageShell(options: PageShellOptions): Plugin {
  let root = '';
  return {
    name: 'ra:page-shell',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    writeBundle: {
      sequential: true,
      async handler(output, bundle) {
        const outDir = output.dir!;
        let html = await fs.readFile(path.join(outDir, 'index.html'), 'utf8');
        const wanted: string[] = [];
        const stylesheets: string[] = [];
        for (const module of options.modules) {
          const id = path.resolve(root, module);
          const chunk = Object.values(bundle).find(
            (file): file is OutputChunk => file.type === 'chunk' && file.facadeModuleId === id,
          );
          if (!chunk) {
            throw new Error(`page shell: no chunk for ${module}`);
          }
          for (const file of withStaticImports(bundle, chunk)) {
            if (!wanted.includes(file) && !html.includes(`"/${file}"`)) {
              wanted.push(file);
            }
            // A lazy chunk's import waits for its stylesheets: asked for here, they are there first.
            const css = (bundle[file] as OutputChunk).viteMetadata?.importedCss ?? new Set<string>();
            for (const sheet of css) {
              if (!stylesheets.includes(sheet) && !html.includes(`"/${sheet}"`)) {
                stylesheets.push(sheet);
              }
            }
          }
        }
        if (!html.includes(HEAD_END)) {
          throw new Error('page shell: index.html has no </head>');
        }
        const links = [
          ...wanted.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
          ...stylesheets.map((sheet) => `<link rel="stylesheet" crossorigin href="/${sheet}">`),
        ];
        html = html.replace(HEAD_END, () => `  ${links.join('\n    ')}\n  ${HEAD_END}`);
        await fs.mkdir(path.join(outDir, PAGE_SHELLS_DIR), { recursive: true });
        await fs.writeFile(path.join(outDir, PAGE_SHELLS_DIR, `${options.name}.html`), html);
      },
    },
  };
}
