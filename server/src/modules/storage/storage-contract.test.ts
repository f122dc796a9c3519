import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../../../test/s3-server.js';
import { freePort } from '../../../test/free-port.js';
import { checkBucket, s3ClientConfig } from './s3-client.js';
import { LocalDiskStorage } from './local-disk-storage.js';
import { S3Storage, S3_FILES_PREFIX } from './s3-storage.js';
import type { Storage } from './storage.js';
import { verifySignedPath } from './signed-url.js';

/** S3's smallest multipart part: the driver is given it so a modest file already goes in parts. */
const PART_BYTES = 5 * 1024 * 1024;
const SECRET = 'contract-test-secret';

let s3: TestS3;
let scratch: string;
beforeAll(async () => {
  s3 = await startTestS3();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-storage-contract-'));
});
afterAll(async () => {
  await s3?.close();
  fs.rmSync(scratch, { recursive: true, force: true });
});

const drivers: [string, () => Storage][] = [
  ['LocalDiskStorage', () => new LocalDiskStorage(path.join(scratch, 'disk'), SECRET)],
  [
    'S3Storage',
    () =>
      new S3Storage({
        client: s3.client,
        bucket: s3.settings.bucket,
        urlSecret: SECRET,
        partBytes: PART_BYTES,
      }),
  ],
];

function localFile(bytes: Buffer): string {
  const file = path.join(scratch, `in-${crypto.randomUUID()}`);
  fs.writeFileSync(file, bytes);
  return file;
}

describe.each(drivers)('%s keeps the storage contract', (_name, make) => {
  let storage: Storage;
  beforeAll(() => {
    storage = make();
  });
  const bytes = Buffer.from('0123456789abcdefghij');

  it('stores a buffer and reads it back whole, by range and as bytes', async () => {
    await storage.putBuffer('items/a/one.bin', bytes);
    expect(await storage.stat('items/a/one.bin')).toEqual({ size: bytes.length });
    expect(await buffer(await storage.read('items/a/one.bin'))).toEqual(bytes);
    expect((await buffer(await storage.read('items/a/one.bin', { start: 3, end: 7 }))).toString()).toBe(
      '34567',
    );
    expect((await storage.readBytes('items/a/one.bin', { start: 10, end: 12 })).toString()).toBe('abc');
    expect(await storage.readAll('items/a/one.bin')).toEqual(bytes);
    // A range running past the end gives what there is.
    expect((await storage.readBytes('items/a/one.bin', { start: 18, end: 40 })).toString()).toBe('ij');
  });

  it('overwrites a key with new bytes', async () => {
    await storage.putBuffer('items/a/two.bin', Buffer.from('first'));
    await storage.putBuffer('items/a/two.bin', Buffer.from('second!'));
    expect(await storage.stat('items/a/two.bin')).toEqual({ size: 7 });
    expect((await buffer(await storage.read('items/a/two.bin'))).toString()).toBe('second!');
  });

  it('copies a local file in, or moves it', async () => {
    const kept = localFile(bytes);
    await storage.putFile('items/b/kept.bin', kept);
    expect(fs.existsSync(kept)).toBe(true);
    const moved = localFile(bytes);
    await storage.putFile('items/b/moved.bin', moved, { move: true });
    expect(fs.existsSync(moved)).toBe(false);
    expect(await buffer(await storage.read('items/b/moved.bin'))).toEqual(bytes);
  });

  it('stores a file larger than a multipart part intact', async () => {
    const large = crypto.randomBytes(PART_BYTES * 2 + 12345);
    await storage.putFile('items/c/large.dcm', localFile(large), { move: true });
    expect(await storage.stat('items/c/large.dcm')).toEqual({ size: large.length });
    expect((await buffer(await storage.read('items/c/large.dcm'))).equals(large)).toBe(true);
    expect((await storage.readAll('items/c/large.dcm')).equals(large)).toBe(true);
    // A range across the first part's end.
    const range = { start: PART_BYTES - 10, end: PART_BYTES + 9 };
    expect(
      (await storage.readBytes('items/c/large.dcm', range)).equals(
        large.subarray(range.start, range.end + 1),
      ),
    ).toBe(true);
  });

  it('deletes, and a deleted or missing key is absent', async () => {
    await storage.putBuffer('items/d/gone.bin', bytes);
    await storage.delete('items/d/gone.bin');
    expect(await storage.stat('items/d/gone.bin')).toBeUndefined();
    expect(await storage.stat('items/d/never.bin')).toBeUndefined();
    await expect(storage.read('items/d/never.bin')).rejects.toThrow();
    await expect(storage.readBytes('items/d/never.bin', { start: 0, end: 3 })).rejects.toThrow();
    await expect(storage.readAll('items/d/never.bin')).rejects.toThrow();
    // Deleting what is not there is no error.
    await storage.delete('items/d/never.bin');
  });

  it.each(['../outside.bin', 'items/../../x', '/absolute', '.hidden', 'items/a b.bin', ''])(
    'refuses the unsafe key %j in every operation',
    async (key) => {
      await expect(storage.putBuffer(key, bytes)).rejects.toThrow(/unsafe storage key/);
      await expect(storage.putFile(key, localFile(bytes))).rejects.toThrow(/unsafe storage key/);
      await expect(storage.read(key)).rejects.toThrow(/unsafe storage key/);
      await expect(storage.readBytes(key, { start: 0, end: 1 })).rejects.toThrow(/unsafe storage key/);
      await expect(storage.readAll(key)).rejects.toThrow(/unsafe storage key/);
      await expect(storage.delete(key)).rejects.toThrow(/unsafe storage key/);
      expect(() => storage.signedUrl(key, null)).toThrow(/unsafe storage key/);
    },
  );

  it("signs URLs of this server's file route, never of the bucket", () => {
    const url = storage.signedUrl('profiles/u/pic.webp', null);
    expect(url.startsWith('/api/files/profiles/u/pic.webp?')).toBe(true);
    const query = Object.fromEntries(new URL(url, 'http://x').searchParams) as never;
    expect(verifySignedPath(SECRET, '/api/files/profiles/u/pic.webp', query)).toBeTruthy();
  });
});

describe('S3Storage in the bucket', () => {
  it('keeps files under files/, apart from tus uploads at the root', async () => {
    const storage = new S3Storage({ client: s3.client, bucket: s3.settings.bucket, urlSecret: SECRET });
    await storage.putBuffer('items/e/where.bin', Buffer.from('here'));
    const head = await s3.client.send(
      new HeadObjectCommand({ Bucket: s3.settings.bucket, Key: `${S3_FILES_PREFIX}items/e/where.bin` }),
    );
    expect(head.ContentLength).toBe(4);
    const root = await s3.client.send(
      new ListObjectsV2Command({ Bucket: s3.settings.bucket, Delimiter: '/' }),
    );
    expect((root.Contents ?? []).map((object) => object.Key)).toEqual([]);
  });

  it('reads the bytes of a range with one ranged GET, not the whole object', async () => {
    const client = new S3Client(s3ClientConfig(s3.settings));
    const gets: (string | undefined)[] = [];
    client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { method: string; headers: Record<string, string> };
        if (request.method === 'GET') {
          gets.push(request.headers.range);
        }
        return next(args);
      },
      { step: 'finalizeRequest' },
    );
    const storage = new S3Storage({ client, bucket: s3.settings.bucket, urlSecret: SECRET });
    await storage.putBuffer('items/f/frames.bin', crypto.randomBytes(64 * 1024));
    expect((await storage.readBytes('items/f/frames.bin', { start: 1000, end: 1999 })).length).toBe(1000);
    expect(gets).toEqual(['bytes=1000-1999']);
    client.destroy();
  });

  it('stops the start with a clear message when the bucket cannot be used', async () => {
    await checkBucket(s3.client, s3.settings);
    await expect(checkBucket(s3.client, { ...s3.settings, bucket: 'missing-bucket' })).rejects.toThrow(
      `STORAGE=s3: the bucket "missing-bucket" at ${s3.settings.endpoint} cannot be used: it does not exist`,
    );
    const port = await freePort();
    const settings = { ...s3.settings, endpoint: `http://127.0.0.1:${port}` };
    const client = new S3Client({ ...s3ClientConfig(settings), maxAttempts: 1 });
    await expect(checkBucket(client, settings)).rejects.toThrow(/cannot be used: .*ECONNREFUSED/);
    client.destroy();
  });

  it('answers stat with an error, not "missing", when the server cannot be reached', async () => {
    const port = await freePort();
    const client = new S3Client({
      ...s3ClientConfig({ ...s3.settings, endpoint: `http://127.0.0.1:${port}` }),
      maxAttempts: 1,
    });
    const storage = new S3Storage({ client, bucket: s3.settings.bucket, urlSecret: SECRET });
    await expect(storage.stat('items/x.bin')).rejects.toThrow();
    client.destroy();
  });
});
