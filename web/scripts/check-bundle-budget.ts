/**
 * The bundle budget, run after `npm run build`: what a first visit to each page downloads from the
 * web build (the page shell — landing.html for the landing page —, the entry chunk with its static
 * imports and CSS, and the page's lazy chunk with its imports), counted as brotli bytes since the
 * server sends the .br variants.
 * Fails when the landing page is over 200 kB or another page over 350 kB. A page the server sends
 * with a shell of its own (dist/pages/<name>.html, web/vite-plugins/page-shell.ts) is also counted
 * as opened by its address, with everything its shell preloads: the item page's shell carries the
 * diagnostic viewer (Cornerstone3D), which every study needs, and has a limit of its own, 1.1 MB.
 * The limits can be set lower through LANDING_BUDGET_BYTES, PAGE_BUDGET_BYTES and
 * SHELL_BUDGET_BYTES (to see the check fail, say).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from 'vite';

const distDir = path.resolve(import.meta.dirname, '..', 'dist');
const LANDING_PAGE_SOURCE = 'src/features/landing/pages/LandingPage.tsx';
const LANDING_HTML = 'landing.html';
const LANDING_BUDGET_BYTES = Number(process.env.LANDING_BUDGET_BYTES ?? 200_000);
const PAGE_BUDGET_BYTES = Number(process.env.PAGE_BUDGET_BYTES ?? 350_000);
const SHELL_BUDGET_BYTES = Number(process.env.SHELL_BUDGET_BYTES ?? 1_100_000);
const PAGE_SHELLS_DIR = 'pages';
/** The build files a page shell asks for: its scripts, preloads and stylesheets. */
const SHELL_FILES = /(?:src|href)="\/(assets\/[^"]+)"/g;

/** Bytes on the wire: the brotli variant when the build wrote one, else the file itself. */
function wireBytes(file: string): number {
  const full = path.join(distDir, file);
  return fs.existsSync(`${full}.br`) ? fs.statSync(`${full}.br`).size : fs.statSync(full).size;
}

/** The files a chunk needs before it runs: itself, its CSS and its static imports, transitively. */
function staticClosure(manifest: Manifest, key: string, files = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk) {
    throw new Error(`${key} is not in the build manifest`);
  }
  if (files.has(chunk.file)) {
    return files;
  }
  files.add(chunk.file);
  for (const css of chunk.css ?? []) {
    files.add(css);
  }
  for (const imported of chunk.imports ?? []) {
    staticClosure(manifest, imported, files);
  }
  return files;
}

function sum(files: Iterable<string>): number {
  let total = 0;
  for (const file of files) {
    total += wireBytes(file);
  }
  return total;
}

/**
 * The server sends `/` as the prerendered landing.html when the build made one: it replaces
 * index.html and carries the stylesheets inline.
 */
function landingShell(shell: Set<string>): Set<string> {
  if (!fs.existsSync(path.join(distDir, LANDING_HTML))) {
    return shell;
  }
  const scripts = [...shell].filter((file) => file !== 'index.html' && !file.endsWith('.css'));
  return new Set([LANDING_HTML, ...scripts]);
}

interface PageWeight {
  name: string;
  bytes: number;
  budget: number;
}

function pageWeights(manifest: Manifest): { shell: Set<string>; pages: PageWeight[] } {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) {
    throw new Error('the build manifest has no entry');
  }
  const shell = staticClosure(manifest, entryKey, new Set(['index.html']));
  const pages = (manifest[entryKey]!.dynamicImports ?? []).map((key) => {
    const isLanding = key === LANDING_PAGE_SOURCE;
    const files = staticClosure(manifest, key, new Set(isLanding ? landingShell(shell) : shell));
    return {
      name: isLanding ? `${manifest[key]!.name} (landing)` : (manifest[key]!.name ?? key),
      bytes: sum(files),
      budget: isLanding ? LANDING_BUDGET_BYTES : PAGE_BUDGET_BYTES,
    };
  });
  if (!pages.some((page) => page.name.endsWith('(landing)'))) {
    throw new Error(`${LANDING_PAGE_SOURCE} is not a lazy page of the entry`);
  }
  return { shell, pages: [...pages.sort((a, b) => b.bytes - a.bytes), ...pageShellWeights(manifest)] };
}

/** Each page shell with the files it names and their stylesheets (which the chunks load as they run). */
function pageShellWeights(manifest: Manifest): PageWeight[] {
  const dir = path.join(distDir, PAGE_SHELLS_DIR);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.html')) : [];
  const cssOf = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk.css ?? []]));
  return names.map((name) => {
    const shell = `${PAGE_SHELLS_DIR}/${name}`;
    const named = [...fs.readFileSync(path.join(distDir, shell), 'utf8').matchAll(SHELL_FILES)].map(
      ([, file]) => file!,
    );
    const files = new Set([shell, ...named, ...named.flatMap((file) => cssOf.get(file) ?? [])]);
    return {
      name: `/${name.slice(0, -'.html'.length)} opened by its address`,
      bytes: sum(files),
      budget: SHELL_BUDGET_BYTES,
    };
  });
}

const manifestPath = path.join(distDir, '.vite', 'manifest.json');
if (!fs.existsSync(manifestPath)) {
  console.error(`${manifestPath} is missing: run \`npm run build\` first.`);
  process.exit(1);
}
const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
const { shell, pages } = pageWeights(manifest);
const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

console.log(`Bundle budget: brotli bytes of a first visit's HTML, JS and CSS (web/dist)\n`);
console.log(`shared by every page: ${kB(sum(shell))} (${[...shell].join(', ')})\n`);
console.log('| page | over the wire | budget | |');
console.log('|---|---:|---:|---|');
for (const page of pages) {
  const verdict = page.bytes > page.budget ? 'OVER' : 'ok';
  console.log(`| ${page.name} | ${kB(page.bytes)} | ${kB(page.budget)} | ${verdict} |`);
}
const over = pages.filter((page) => page.bytes > page.budget);
if (over.length > 0) {
  console.error(`\nOver budget: ${over.map((page) => page.name).join(', ')}`);
  process.exit(1);
}
