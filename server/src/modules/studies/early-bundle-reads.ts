import fs from 'node:fs/promises';
import path from 'node:path';
import type { FileRead } from './dicom-file-read.js';
import { extractBundle } from './study-bundle.js';
import { removeWorkDir, workDirNamed } from './work-dirs.js';

/** How long a bundle read ahead waits for its filing; then its files go, and filing reads it again. */
export const EARLY_READ_MS = 10 * 60 * 1000;
/**
 * Bundles held read ahead at once, across all users, and their bytes: beyond them a bundle is read
 * when it is filed. The bound is on what waits in memory (each file's attributes) and on disk.
 */
const MAX_EARLY_READS = 64;
const MAX_EARLY_READ_BYTES = 1024 ** 3;

interface Held {
  /** The working folder the bundle's files are written to. */
  dir: string;
  size: number;
  read: Promise<FileRead[]>;
  timer: NodeJS.Timeout;
}

/** A read's answer with its files' paths moved from one folder to another. */
function movedTo(read: FileRead, from: string, to: string): FileRead {
  if (read && 'file' in read) {
    return { file: { ...read.file, path: path.join(to, path.relative(from, read.file.path)) } };
  }
  return read;
}

/**
 * Bundles read as soon as their upload finishes: while a folder's next bundles are still being
 * sent, the finished ones are taken apart and parsed, so that filing them (upload-study) finds
 * their files ready. Held in this process's memory only: a filing that finds none here (another
 * process, a restart, a read that expired) reads the bundle itself, from its upload.
 */
class EarlyBundleReads {
  private readonly held = new Map<string, Held>();
  private heldBytes = 0;

  /** Starts reading a finished bundle upload; not awaited by the upload's last request. */
  start(upload: { id: string; file: string; size: number }, tusDir: string): void {
    const isRoom = this.held.size < MAX_EARLY_READS && this.heldBytes + upload.size <= MAX_EARLY_READ_BYTES;
    if (this.held.has(upload.id) || !isRoom) {
      return;
    }
    // extractBundle makes it; upload ids are random and never reused.
    const dir = workDirNamed(tusDir, `early-${upload.id}`);
    const read = extractBundle(upload.file, dir);
    // The filing that takes the read hears of its failure; until then it must not go unhandled.
    read.catch(() => undefined);
    const timer = setTimeout(() => void this.discard(upload.id), EARLY_READ_MS);
    timer.unref();
    this.held.set(upload.id, { dir, size: upload.size, read, timer });
    this.heldBytes += upload.size;
  }

  private take(uploadId: string): Held | undefined {
    const held = this.held.get(uploadId);
    if (held) {
      this.held.delete(uploadId);
      this.heldBytes -= held.size;
      clearTimeout(held.timer);
    }
    return held;
  }

  /**
   * The read of a bundle upload, if this process made one, once it has ended: its folder becomes
   * `dir` (which must not exist yet), in the caller's hands. Rejects as extractBundle does, the
   * folder moved all the same. Only the upload's owner may call it, so only they see its files.
   */
  async takeInto(uploadId: string, dir: string): Promise<FileRead[] | undefined> {
    const held = this.take(uploadId);
    if (!held) {
      return undefined;
    }
    await Promise.allSettled([held.read]);
    // A rename: the working folders are on one disk. A bundle refused before its first file has none.
    await fs.rename(held.dir, dir).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') {
        throw err;
      }
    });
    return (await held.read).map((read) => movedTo(read, held.dir, dir));
  }

  /** Forgets a read nobody took, and removes its files once it has ended. */
  async discard(uploadId: string): Promise<void> {
    const held = this.take(uploadId);
    if (held) {
      await Promise.allSettled([held.read]);
      await removeWorkDir(held.dir);
    }
  }
}

export const earlyBundleReads = new EarlyBundleReads();
