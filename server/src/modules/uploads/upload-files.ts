import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { DeleteObjectsCommand, GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import type { DataStore } from '@tus/server';
import { readHead } from './dicom-upload.js';

/** A finished upload's bytes as a file on this machine, until `release()`. */
export interface LocalUploadCopy {
  path: string;
  /** Removes the copy; for a file the store keeps on this disk itself, does nothing. */
  release(): Promise<void>;
}

/**
 * Where tus keeps uploads until they are claimed, and how the rest of the server reaches their
 * bytes: on this disk (FileStore), or in the shared bucket (S3Store) so that an upload started
 * through one instance can be resumed, and filed, through another.
 */
export interface UploadFiles {
  /** The tus data store. */
  readonly store: DataStore;
  /**
   * The path of an upload's own file when it is on this disk: read in place, never copied.
   * Undefined when the bytes are elsewhere (ask localCopyOf).
   */
  directPath(id: string): string | undefined;
  /**
   * A finished upload as a local file: its own (on this disk), or a downloaded copy, written in
   * `dir` when given (the caller then removes it with that folder), else in the scratch folder.
   */
  localCopyOf(id: string, dir?: string): Promise<LocalUploadCopy>;
  /** A finished upload's first `length` bytes (fewer when it is shorter), without reading the rest. */
  headOf(id: string, length: number): Promise<Buffer>;
  /** Removes what is kept of an upload, finished or not; missing files are no error. */
  remove(id: string): Promise<void>;
  /** Removes unfinished uploads past the store's expiry. */
  deleteExpired(): Promise<void>;
}

const NOTHING_TO_RELEASE = () => Promise.resolve();

/** Uploads as files in `directory` (`<id>` and `<id>.json`). */
export class DiskUploadFiles implements UploadFiles {
  readonly store: FileStore;

  constructor(
    private readonly directory: string,
    expirationMs: number,
  ) {
    this.store = new FileStore({ directory, expirationPeriodInMilliseconds: expirationMs });
  }

  directPath(id: string): string {
    return path.join(this.directory, id);
  }

  localCopyOf(id: string): Promise<LocalUploadCopy> {
    return Promise.resolve({ path: this.directPath(id), release: NOTHING_TO_RELEASE });
  }

  headOf(id: string, length: number): Promise<Buffer> {
    return readHead(this.directPath(id), length);
  }

  async remove(id: string): Promise<void> {
    await fsp.rm(path.join(this.directory, id), { force: true });
    await fsp.rm(path.join(this.directory, `${id}.json`), { force: true });
  }

  async deleteExpired(): Promise<void> {
    await this.store.deleteExpired();
  }
}

/** A copy not released within a day was left by a process that stopped: the cleanup job removes it. */
const COPY_PREFIX = 'copy-';

/**
 * Uploads in an S3 bucket, at its root under their ids (`<id>`, `<id>.info`, `<id>.part`); the
 * stored files live under `files/` (storage/s3-storage.ts). Copies are written to `scratchDir`,
 * on this machine.
 */
export class S3UploadFiles implements UploadFiles {
  readonly store: S3Store;

  constructor(
    private readonly options: {
      client: S3Client;
      clientConfig: ConstructorParameters<typeof S3Store>[0]['s3ClientConfig'];
      bucket: string;
      scratchDir: string;
      expirationMs: number;
    },
  ) {
    this.store = new S3Store({
      s3ClientConfig: options.clientConfig,
      expirationPeriodInMilliseconds: options.expirationMs,
      // Tags are for a bucket lifecycle rule; not every S3-protocol server keeps them.
      useTags: false,
    });
    fs.mkdirSync(options.scratchDir, { recursive: true });
  }

  directPath(): undefined {
    return undefined;
  }

  async localCopyOf(id: string): Promise<LocalUploadCopy> {
    const copy = path.join(
      this.options.scratchDir,
      `${COPY_PREFIX}${id}-${crypto.randomBytes(6).toString('hex')}`,
    );
    const object = await this.options.client.send(
      new GetObjectCommand({ Bucket: this.options.bucket, Key: id }),
    );
    try {
      await pipeline(object.Body as Readable, fs.createWriteStream(copy));
    } catch (err) {
      await fsp.rm(copy, { force: true });
      throw err;
    }
    return { path: copy, release: () => fsp.rm(copy, { force: true }) };
  }

  async headOf(id: string, length: number): Promise<Buffer> {
    try {
      const object = await this.options.client.send(
        new GetObjectCommand({ Bucket: this.options.bucket, Key: id, Range: `bytes=0-${length - 1}` }),
      );
      return Buffer.from(await object.Body!.transformToByteArray());
    } catch (err) {
      // An empty object has no first byte to range over.
      if ((err as { name?: string }).name === 'InvalidRange') {
        return Buffer.alloc(0);
      }
      throw err;
    }
  }

  async remove(id: string): Promise<void> {
    // An unfinished upload's parts go with its multipart upload; a finished one has none left.
    await this.store.remove(id).catch(() => undefined);
    await this.options.client.send(
      new DeleteObjectsCommand({
        Bucket: this.options.bucket,
        Delete: { Objects: [{ Key: id }, { Key: `${id}.info` }, { Key: `${id}.part` }], Quiet: true },
      }),
    );
  }

  async deleteExpired(): Promise<void> {
    await this.store.deleteExpired();
    // Copies of a process that stopped before releasing them.
    const dayAgo = Date.now() - 24 * 3600 * 1000;
    for (const name of await fsp.readdir(this.options.scratchDir)) {
      const file = path.join(this.options.scratchDir, name);
      if (name.startsWith(COPY_PREFIX) && (await fsp.stat(file)).mtimeMs < dayAgo) {
        await fsp.rm(file, { force: true });
      }
    }
  }
}
