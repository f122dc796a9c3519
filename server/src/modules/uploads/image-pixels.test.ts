import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { createPhysician, signIn } from '../../../test/factories.js';
import { createUpload, patchUpload, pngImage } from '../../../test/uploads.js';
import { findUpload } from './uploads.repository.js';

const idOf = (url: string) => url.split('/').pop()!;

/** A huge but tiny file: one channel of zeros compresses to almost nothing (about 300 KB). */
function blankPng(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: '#000' }, limitInputPixels: false })
    .toColourspace('b-w')
    .png({ compressionLevel: 9 })
    .toBuffer();
}

async function send(t: TestApp, token: string, file: Buffer, purpose = 'image') {
  const created = await createUpload(t.app, token, { size: file.length, purpose });
  expect(created.statusCode).toBe(201);
  const url = created.headers.location as string;
  return { url, response: await patchUpload(t.app, token, url, 0, file) };
}

describe('the pixel limit of medical images (MAX_IMAGE_MEGAPIXELS, default 300)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = (await signIn(t.app, (await createPhysician(t.database.db)).email)).token;
  });
  afterAll(() => t.close());

  it('refuses a 320-megapixel image with 413 and deletes its bytes', async () => {
    const file = await blankPng(20_000, 16_000);
    expect(file.length).toBeLessThan(2 * 1024 * 1024);
    const { url, response } = await send(t, token, file);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      errors: [{ msg: 'The image is larger than 300 megapixels.', path: 'upload' }],
    });
    expect(fs.existsSync(path.join(t.app.ctx.tusDir, idOf(url)))).toBe(false);
    expect(await findUpload(t.database.db, idOf(url))).toMatchObject({ contentType: null });
  }, 60_000);
});

describe('a configured pixel limit (MAX_IMAGE_MEGAPIXELS=1)', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp({ MAX_IMAGE_MEGAPIXELS: '1' });
    token = (await signIn(t.app, (await createPhysician(t.database.db)).email)).token;
  });
  afterAll(() => t.close());

  it('refuses a 1200×1000 image with the configured number', async () => {
    const { response } = await send(t, token, await pngImage(1200, 1000));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({
      errors: [{ msg: 'The image is larger than 1 megapixels.', path: 'upload' }],
    });
  });

  it('accepts an 800×600 image', async () => {
    const { url, response } = await send(t, token, await pngImage(800, 600));
    expect(response.statusCode).toBe(204);
    expect(await findUpload(t.database.db, idOf(url))).toMatchObject({ width: 800, height: 600 });
  });

  it('leaves profile pictures to their own 50-megapixel rule', async () => {
    const { response } = await send(t, token, await pngImage(1200, 1000), 'profile');
    expect(response.statusCode).toBe(204);
  });
});
