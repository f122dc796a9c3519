import type { Readable } from 'node:stream';
import type { FileAudience } from './signed-url.js';

export interface StoredObject {
  size: number;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

/**
 * Where files live. Callers only know keys; the local-disk driver is the default and an
 * S3-compatible driver can implement the same operations (its signed URLs would be presigned).
 */
export interface Storage {
  /** Moves or copies a local file into the store under `key`. */
  putFile(key: string, localPath: string, options?: { move?: boolean }): Promise<void>;
  putBuffer(key: string, data: Buffer): Promise<void>;
  stat(key: string): Promise<StoredObject | undefined>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** The bytes of a range, in one buffer: for small reads a stream would cost more than the bytes. */
  readBytes(key: string, range: ByteRange): Promise<Buffer>;
  /**
   * The whole file in one buffer, for a reader that needs all of it (a decode thread), copied once
   * and, from the local disk, by the kernel off this thread.
   */
  readAll(key: string): Promise<Buffer>;
  delete(key: string): Promise<void>;
  /**
   * A URL the browser can load the file from directly, valid for a limited time. A patient's file
   * names its audience (viewer and patient) so that its download is audited; null only for files
   * that are not patient data, such as a staff member's own picture.
   */
  signedUrl(key: string, audience: FileAudience | null): string;
}
