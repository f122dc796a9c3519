import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|wasm|txt|xml)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

async function listFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

/** Writes `encoded` next to `file` under `suffix` when it is smaller than the file itself. */
async function writeIfSmaller(
  file: string,
  original: Buffer,
  encoded: Buffer,
  suffix: string,
): Promise<void> {
  if (encoded.length < original.length) {
    await fs.writeFile(`${file}${suffix}`, encoded);
  }
}

async function precompressFile(file: string): Promise<void> {
  const original = await fs.readFile(file);
  const [br, gz] = await Promise.all([
    brotli(original, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: original.length,
      },
    }),
    gzip(original, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  await writeIfSmaller(file, original, br, '.br');
  await writeIfSmaller(file, original, gz, '.gz');
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) next to every
 * compressible file of the build, so the server sends compressed bytes without compressing per
 * request. A variant that would not be smaller is skipped; the server then sends the file as it is.
 * Runs last, after every other plugin has written its files.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'ra:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        // .vite/ holds the build manifest, which is read by scripts and never served.
        const files = (await listFiles(outDir)).filter(
          (file) => COMPRESSIBLE.test(file) && !path.relative(outDir, file).startsWith('.vite'),
        );
        await Promise.all(files.map(precompressFile));
      },
    },
  };
}
