/**
 * The bundle budget, run after `npm run build`: what a first visit to each page downloads from the
 * web build (the page shell — landing.html for the landing page —, the entry chunk with its static
 * imports and CSS, and the page's lazy chunk with its imports), counted as brotli bytes since the
 * server sends the .br variants.
 * Fails when the landing page is over 200 kB or another page over 350 kB. The limits can be set
 * lower through LANDING_BUDGET_BYTES and PAGE_BUDGET_BYTES (to see the check fail, say).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Manifest } from 'vite';

const distDir = path.resolve(import.meta.dirname, '..', 'dist');
const LANDING_PAGE_SOURCE = 'src/features/landing/pages/LandingPage.tsx';
const LANDING_HTML = 'landing.html';
const LANDING_BUDGET_BYTES = Number(process.env.LANDING_BUDGET_BYTES ?? 200_000);
const PAGE_BUDGET_BYTES = Number(process.env.PAGE_BUDGET_BYTES ?? 350_000);

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
  return { shell, pages: pages.sort((a, b) => b.bytes - a.bytes) };
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
