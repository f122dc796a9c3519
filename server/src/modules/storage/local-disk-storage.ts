import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, Storage, StoredObject } from './storage.js';
import { FILES_PREFIX, UrlSigner, type FileAudience } from './signed-url.js';
import { checkStorageKey } from './storage-key.js';

/**
 * Runs a write into the folder of `target`, making the folder first when it is missing: most
 * writes go to folders that exist, so they cost no `mkdir`.
 */
async function inFolderOf<T>(target: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw err;
    }
    await fsp.mkdir(path.dirname(target), { recursive: true });
    return write();
  }
}

/** Files on the local disk under `root`, one file per key. */
export class LocalDiskStorage implements Storage {
  /** Signs the URLs this server serves files at (files.routes.ts checks them). */
  private readonly signer: UrlSigner;

  constructor(
    private readonly root: string,
    urlSecret: string,
  ) {
    fs.mkdirSync(root, { recursive: true });
    this.signer = new UrlSigner(urlSecret);
  }

  signedUrl(key: string, audience: FileAudience | null): string {
    this.pathOf(key);
    return this.signer.sign(`${FILES_PREFIX}${key}`, audience);
  }

  private pathOf(key: string): string {
    return path.join(this.root, checkStorageKey(key));
  }

  async putFile(key: string, localPath: string, options: { move?: boolean } = {}): Promise<void> {
    const target = this.pathOf(key);
    if (options.move) {
      try {
        await inFolderOf(target, () => fsp.rename(localPath, target));
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') {
          throw err;
        }
      }
    }
    await inFolderOf(target, () => fsp.copyFile(localPath, target));
    if (options.move) {
      await fsp.rm(localPath, { force: true });
    }
  }

  async putBuffer(key: string, data: Buffer): Promise<void> {
    const target = this.pathOf(key);
    const temporary = `${target}.${process.pid}.tmp`;
    await inFolderOf(target, () => fsp.writeFile(temporary, data));
    await fsp.rename(temporary, target);
  }

  async stat(key: string): Promise<StoredObject | undefined> {
    try {
      const stats = await fsp.stat(this.pathOf(key));
      return { size: stats.size };
    } catch {
      return undefined;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const file = this.pathOf(key);
    await fsp.access(file);
    return fs.createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async readBytes(key: string, range: ByteRange): Promise<Buffer> {
    const handle = await fsp.open(this.pathOf(key), 'r');
    try {
      const bytes = Buffer.alloc(range.end - range.start + 1);
      const { bytesRead } = await handle.read(bytes, 0, bytes.length, range.start);
      return bytes.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async readAll(key: string): Promise<Buffer> {
    const handle = await fsp.open(this.pathOf(key), 'r');
    try {
      const { size } = await handle.stat();
      // Left unfilled here: the kernel writes the file into it on a pool thread, so this thread never
      // touches its pages (a 108 MB instance gathered from a stream held this thread for a second).
      const bytes = Buffer.allocUnsafeSlow(size);
      let filled = 0;
      while (filled < size) {
        const { bytesRead } = await handle.read(bytes, filled, size - filled, filled);
        if (bytesRead === 0) {
          break;
        }
        filled += bytesRead;
      }
      return bytes.subarray(0, filled);
    } finally {
      await handle.close();
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }
}
