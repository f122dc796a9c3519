import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const SHELL = '<!doctype html><title>Radiology Archive</title>' + '<p>shell</p>'.repeat(50);
const LANDING = '<!doctype html><title>Radiology Archive</title>' + '<h1>Landing</h1>'.repeat(50);
const IMAGE_VIEW_SHELL = SHELL + '<link rel="modulepreload" crossorigin href="/assets/viewer-abc123.js">';
const SCRIPT = 'console.log("the app");'.repeat(50);
/** A viewer codec's WebAssembly (a module header, then filler). */
const CODEC = '\0asm\u0001\0\0\0' + 'codec'.repeat(200);

let t: TestApp;
let webDir: string;

/** Writes a file with its .br and .gz siblings, as the web build does. */
function writeWithVariants(file: string, body: string) {
  fs.writeFileSync(file, body);
  fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(body));
  fs.writeFileSync(`${file}.gz`, zlib.gzipSync(body));
}

beforeAll(async () => {
  webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-web-'));
  fs.mkdirSync(path.join(webDir, 'assets'));
  fs.mkdirSync(path.join(webDir, '.vite'));
  writeWithVariants(path.join(webDir, 'index.html'), SHELL);
  writeWithVariants(path.join(webDir, 'landing.html'), LANDING);
  fs.mkdirSync(path.join(webDir, 'pages'));
  writeWithVariants(path.join(webDir, 'pages', 'imageview.html'), IMAGE_VIEW_SHELL);
  writeWithVariants(path.join(webDir, 'assets', 'app-abc123.js'), SCRIPT);
  writeWithVariants(path.join(webDir, 'assets', 'codec_decode-abc123.wasm'), CODEC);
  fs.writeFileSync(path.join(webDir, 'assets', 'app-abc123.js.map'), '{"version":3}');
  fs.writeFileSync(path.join(webDir, '.vite', 'manifest.json'), '{}');
  t = await createTestApp({ WEB_DIST_DIR: webDir });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(webDir, { recursive: true, force: true });
});

function get(url: string, acceptEncoding?: string) {
  return t.app.inject({
    method: 'GET',
    url,
    headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
  });
}

/** An HTML page sent as its brotli variant, revalidated on every use. */
function expectRevalidatedBrotliHtml(response: Awaited<ReturnType<typeof get>>, html: string): void {
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-encoding']).toBe('br');
  expect(response.headers['content-type']).toContain('text/html');
  expect(response.headers['cache-control']).toBe('no-cache');
  expect(response.headers.vary).toBe('Accept-Encoding');
  expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(html);
}

describe('the web app files', () => {
  it('sends the brotli variant with its encoding to a client that accepts brotli', async () => {
    const response = await get('/assets/app-abc123.js', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(response.headers['content-type']).toContain('javascript');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends a codec’s WebAssembly compressed, as application/wasm (streaming compilation needs it), cached for good', async () => {
    const response = await get('/assets/codec_decode-abc123.wasm', 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('application/wasm');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(CODEC);
  });

  it('sends the gzip variant to a client that accepts only gzip', async () => {
    const response = await get('/assets/app-abc123.js', 'gzip');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toBe('Accept-Encoding');
    expect(zlib.gunzipSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends the file as it is to a client that accepts no encoding', async () => {
    for (const acceptEncoding of [undefined, 'identity']) {
      const response = await get('/assets/app-abc123.js', acceptEncoding);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers.vary).toBe('Accept-Encoding');
      expect(response.body).toBe(SCRIPT);
    }
  });

  it('sends the prerendered landing page for / only, compressed and revalidated', async () => {
    for (const url of ['/', '/?from=email']) {
      expectRevalidatedBrotliHtml(await get(url, 'br'), LANDING);
    }
    const plain = await get('/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(LANDING);
  });

  it('compresses the page shell of a client route, which is revalidated', async () => {
    for (const url of ['/dashboard', '/signin?role=Patient', '/reset-password?token=abc']) {
      expectRevalidatedBrotliHtml(await get(url, 'br'), SHELL);
    }
  });

  it('sends the page shell the build made for an address (its code preloaded) to that address only', async () => {
    for (const url of ['/imageview', '/imageview?image=abc&frame=3']) {
      expectRevalidatedBrotliHtml(await get(url, 'br'), IMAGE_VIEW_SHELL);
    }
    for (const url of ['/imageview/other', '/imagelibrary', '/pages', '/Imageview']) {
      expectRevalidatedBrotliHtml(await get(url, 'br'), SHELL);
    }
  });

  it('never serves source maps, the build manifest or a compressed variant by its own name', async () => {
    for (const url of [
      '/assets/app-abc123.js.map',
      '/assets/app-abc123.js%2Emap',
      '/assets/app-abc123.js.br',
      '/assets/app-abc123.js.gz',
      '/index.html.br',
      '/.vite/manifest.json',
    ]) {
      for (const acceptEncoding of [undefined, 'br, gzip']) {
        const response = await get(url, acceptEncoding);
        expect(response.statusCode, url).toBe(404);
        expect(response.json()).toEqual({ error: 'Not found.' });
      }
    }
  });

  it('answers a missing asset, API route or DICOMweb resource with 404 rather than the page shell', async () => {
    for (const url of ['/assets/app-old999.js', '/api/nothing', '/dicomweb/nothing', '/dicomweb']) {
      const response = await get(url, 'br');
      expect(response.statusCode, url).toBe(404);
      expect(response.json()).toEqual({ error: 'Not found.' });
    }
  });
});
