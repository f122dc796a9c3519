import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ByteRange, Storage, StoredObject } from './storage.js';
import { FILES_PREFIX, UrlSigner, type FileAudience } from './signed-url.js';
import { checkStorageKey } from './storage-key.js';
import { isMissingObject } from './s3-client.js';

/** Parts of a multipart upload: S3 allows 5 MiB at least; 8 MiB keeps a 2 GB file under 300 parts. */
export const S3_PART_BYTES = 8 * 1024 * 1024;
/** Parts of one file sent at the same time. */
const PARTS_AT_ONCE = 4;
/**
 * Where stored files are kept in the bucket: tus keeps its uploads at the bucket's root under their
 * random ids (`<uuid>`, `<uuid>.info`, `<uuid>.part`), which can never start so.
 */
export const S3_FILES_PREFIX = 'files/';

export interface S3StorageOptions {
  client: S3Client;
  bucket: string;
  urlSecret: string;
  /** Files at least this large are sent in parts of this size (tests make it small). */
  partBytes?: number;
}

/**
 * Files in an S3-protocol bucket (AWS S3, MinIO, Ceph RGW), one object per key, so that several
 * server instances share them. Files are still served by this server's `/api/files/...` route,
 * signed and audited (files.routes.ts); the bucket itself is never exposed to browsers.
 */
export class S3Storage implements Storage {
  private readonly signer: UrlSigner;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly partBytes: number;

  constructor(options: S3StorageOptions) {
    this.client = options.client;
    this.bucket = options.bucket;
    this.partBytes = options.partBytes ?? S3_PART_BYTES;
    this.signer = new UrlSigner(options.urlSecret);
  }

  signedUrl(key: string, audience: FileAudience | null): string {
    checkStorageKey(key);
    return this.signer.sign(`${FILES_PREFIX}${key}`, audience);
  }

  private objectKey(key: string): string {
    return `${S3_FILES_PREFIX}${checkStorageKey(key)}`;
  }

  async putFile(key: string, localPath: string, options: { move?: boolean } = {}): Promise<void> {
    const objectKey = this.objectKey(key);
    const { size } = await fsp.stat(localPath);
    if (size < this.partBytes) {
      // One request: a small file costs no multipart round trips.
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: objectKey,
          Body: await fsp.readFile(localPath),
        }),
      );
    } else {
      const upload = new Upload({
        client: this.client,
        params: { Bucket: this.bucket, Key: objectKey, Body: fs.createReadStream(localPath) },
        partSize: this.partBytes,
        queueSize: PARTS_AT_ONCE,
        leavePartsOnError: false,
      });
      await upload.done();
    }
    if (options.move) {
      await fsp.rm(localPath, { force: true });
    }
  }

  async putBuffer(key: string, data: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key), Body: data }),
    );
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return { size: head.ContentLength ?? 0 };
    } catch (err) {
      if (isMissingObject(err)) {
        return undefined;
      }
      throw err;
    }
  }

  private async get(key: string, range?: ByteRange) {
    return this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const object = await this.get(key, range);
    // In Node.js the SDK's body is an http.IncomingMessage: a Readable already.
    return object.Body as Readable;
  }

  async readBytes(key: string, range: ByteRange): Promise<Buffer> {
    try {
      // One ranged GET: a frame of a large multi-frame file costs its own bytes only.
      const object = await this.get(key, range);
      return Buffer.from(await object.Body!.transformToByteArray());
    } catch (err) {
      // A range past the end: as the local disk does, nothing is read.
      if ((err as { name?: string }).name === 'InvalidRange') {
        return Buffer.alloc(0);
      }
      throw err;
    }
  }

  async readAll(key: string): Promise<Buffer> {
    const body = await (await this.get(key)).Body!.transformToByteArray();
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  }

  async delete(key: string): Promise<void> {
    // Deleting a missing object succeeds in S3, as rm --force does on the disk.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }
}
