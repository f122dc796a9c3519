import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { MultipartError } from '../../lib/multipart-related/multipart-related-header.js';
import { MultipartSplitter } from '../../lib/multipart-related/multipart-related-splitter.js';
import { dicomBundleBoundaryOf, MAX_BUNDLE_FIRST_LINE, readHead } from '../uploads/index.js';
import type { FileRead } from './dicom-file-read.js';
import { dicomPartReaders } from './dicom-part-readers.js';

/** A bundle's bounds: as many files as a DVD holds, each held in memory until it is written. */
const BUNDLE_LIMITS = { maxParts: 20_000, maxPartBytes: 512 * 1024 ** 2, maxTotalBytes: 8 * 1024 ** 3 };

export const BUNDLE_MESSAGES = {
  damaged: 'The files could not be read from the upload: send them again.',
} as const;

export class BundleRefused extends Error {}

/** Whether text holds a control character (NUL among them): no place in a name, nor in the database. */
function hasControlCharacter(text: string): boolean {
  return [...text].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f);
}

/** A part's name: its Content-Location decoded, or its place in the bundle when that is no name. */
function nameOf(headers: Record<string, string>, index: number): string {
  let name = '';
  try {
    name = decodeURIComponent(headers['content-location'] ?? '');
  } catch {
    // Not URI-encoded: named by its place.
  }
  return name && !hasControlCharacter(name) ? name.slice(0, 1000) : `file ${index}`;
}

/**
 * Writes each file of a DICOM bundle (shared/src/dicom-bundle.ts) into `dir` and reads it as DICOM,
 * reading the bundle as a stream: files are written and parsed on worker threads while the next
 * are taken out. Returns what each file is, in the bundle's order. Throws BundleRefused when the
 * bundle is not one or is cut short: its files were then not all received.
 */
export async function extractBundle(file: string, dir: string): Promise<FileRead[]> {
  const boundary = dicomBundleBoundaryOf(await readHead(file, MAX_BUNDLE_FIRST_LINE));
  if (!boundary) {
    throw new BundleRefused(BUNDLE_MESSAGES.damaged);
  }
  await fs.mkdir(dir, { recursive: true });
  const splitter = new MultipartSplitter(boundary, BUNDLE_LIMITS);
  const reads: Promise<FileRead>[] = [];
  try {
    // In chunks of 1 MiB, not 64 KiB: a bundle of slices is read in far fewer steps.
    for await (const chunk of createReadStream(file, { highWaterMark: 1024 ** 2 }) as AsyncIterable<Buffer>) {
      for (const part of splitter.push(chunk)) {
        const index = reads.length + 1;
        const target = path.join(dir, `${index}.dcm`);
        const { read } = await dicomPartReaders.start(nameOf(part.headers, index), target, part);
        reads.push(read);
      }
    }
    splitter.end();
  } catch (err) {
    if (err instanceof MultipartError) {
      throw new BundleRefused(BUNDLE_MESSAGES.damaged, { cause: err });
    }
    throw err;
  } finally {
    // Every file handed over is written or failed before the caller can remove the folder.
    await Promise.allSettled(reads);
  }
  return Promise.all(reads);
}
