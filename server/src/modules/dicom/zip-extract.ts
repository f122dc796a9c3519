import { close, open } from 'node:fs';
import { mkdir, open as openFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

/**
 * Extracts an uploaded ZIP (a CD's DICOM files) without trusting it. Every file is written under a
 * name made here, so no entry name can reach the disk. Zip bombs are stopped by absolute sizes,
 * counted on the bytes as they inflate: a ratio cannot tell a bomb from a real folder, since a CT
 * of mostly air deflates well beyond 100:1.
 */
export interface ZipLimits {
  maxEntries: number;
  /** Bytes one extracted file may take; a larger one is skipped. */
  maxEntryBytes: number;
  /** Bytes all extracted files may take together, whatever the caller allows. */
  maxTotalBytes: number;
}

export const ZIP_LIMITS: ZipLimits = {
  // A CD of a long study holds a few thousand files; this leaves room for several studies at once.
  maxEntries: 20_000,
  // The server's largest DICOM instance by default (DICOM_MAX_INSTANCE_BYTES); callers pass theirs.
  maxEntryBytes: 256 * 1024 ** 2,
  // The most a dual-layer DVD holds, rounded up: no real disc exceeds it.
  maxTotalBytes: 8 * 1024 ** 3,
};

export interface ExtractedFile {
  /** The entry's normalised path inside the ZIP, such as `DICOM/PAT1/IMG1`. */
  name: string;
  /** Where the file was written: inside the destination folder, under a generated name. */
  path: string;
  size: number;
}

/** An entry that was not extracted, with the sentence shown to the user. */
export interface ZipSkip {
  name: string;
  reason: string;
}

/** The whole archive is refused; the message is shown to the user. */
export class ZipRefused extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'ZipRefused';
  }
}

const TOO_MANY_FILES = 'The ZIP file has too many files.';
const UNREADABLE = 'The ZIP file could not be read.';

const OUTSIDE_PATH = 'The file names a path outside the ZIP.';
const LINK = 'Links inside ZIP files are not followed.';
const ENCRYPTED = 'Encrypted files cannot be read.';
const UNKNOWN_COMPRESSION = 'The file is compressed in a way that cannot be read.';

/** A size as the user reads it in a refusal, e.g. "256 MB" or "1.5 GB" (binary units, as the web shows sizes). */
function sizeForPeople(bytes: number): string {
  const units: [string, number][] = [
    ['GB', 1024 ** 3],
    ['MB', 1024 ** 2],
    ['KB', 1024],
  ];
  for (const [unit, size] of units) {
    if (bytes >= size) {
      return `${Number((bytes / size).toFixed(1))} ${unit}`;
    }
  }
  return `${bytes} bytes`;
}

const tooLargeFile = (limit: number) =>
  `The file is larger than ${sizeForPeople(limit)}, the most one file may take.`;
const tooLargeArchive = (limit: number) =>
  `The ZIP file expands to more than ${sizeForPeople(limit)}, more than can be filed at once.`;

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

const OPEN_OPTIONS: yauzl.Options = {
  lazyEntries: true,
  autoClose: true,
  // yauzl would stop an entry the moment it passes its declared size, before the limits below could
  // name the reason; writeEntry counts the bytes itself and refuses any size that disagrees.
  validateEntrySizes: false,
  // yauzl's own name check errors out of the whole archive; a bad name should cost only its entry.
  decodeStrings: false,
  strictFileNames: false,
};

type EntryPlan = { kind: 'file'; name: string } | { kind: 'skip'; skip: ZipSkip } | { kind: 'ignore' };

/**
 * Absolute, drive, UNC and `..` names. Nothing is written under entry names, so these could not
 * escape anyway; they are skipped because no honest disc holds them and callers show `name`.
 */
function isOutsidePath(name: string): boolean {
  const slashed = name.replaceAll('\\', '/');
  return (
    slashed.includes('\0') ||
    slashed.startsWith('/') ||
    /^[a-z]:/i.test(slashed) ||
    slashed.split('/').includes('..')
  );
}

/** What to do with one entry, from its central directory record alone. */
function planEntry(entry: Entry): EntryPlan {
  const name = yauzl.getFileNameLowLevel(
    entry.generalPurposeBitFlag,
    entry.fileNameRaw,
    entry.extraFields,
    false,
  );
  if (isOutsidePath(name)) {
    return { kind: 'skip', skip: { name, reason: OUTSIDE_PATH } };
  }
  const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
  const fileType = (entry.externalFileAttributes >>> 16) & S_IFMT;
  const baseName = segments.at(-1);
  if (name.endsWith('/') || fileType === S_IFDIR || baseName === undefined) {
    return { kind: 'ignore' };
  }
  // Finder's resource forks and attributes: never images, and not worth a line in the report.
  if (segments[0] === '__MACOSX' || baseName.startsWith('._')) {
    return { kind: 'ignore' };
  }
  const normalised = segments.join('/');
  if (fileType === S_IFLNK) {
    return { kind: 'skip', skip: { name: normalised, reason: LINK } };
  }
  if (entry.isEncrypted()) {
    return { kind: 'skip', skip: { name: normalised, reason: ENCRYPTED } };
  }
  if (!entry.canDecodeFileData()) {
    return { kind: 'skip', skip: { name: normalised, reason: UNKNOWN_COMPRESSION } };
  }
  return { kind: 'file', name: normalised };
}

const openFd = promisify(open);
const closeFd = promisify(close);

/**
 * Runs `use` on the opened archive and returns only once yauzl has closed the file descriptor,
 * whether `use` finished, threw, or abandoned the entries halfway.
 */
async function withZip<T>(zipPath: string, use: (zip: ZipFile) => Promise<T>): Promise<T> {
  const fd = await openFd(zipPath, 'r');
  let zip: ZipFile;
  try {
    zip = await yauzl.fromFdPromise(fd, OPEN_OPTIONS);
  } catch (err) {
    // Until it hands back a ZipFile, the descriptor is still ours to close.
    await closeFd(fd);
    throw new ZipRefused(UNREADABLE, { cause: err });
  }
  const descriptorClosed = new Promise<void>((resolve) => zip.once('close', resolve));
  // eachEntry() reports reading errors itself; once it has stopped listening, an error closing the
  // descriptor would be an 'error' event with no listener, which would crash the process.
  zip.on('error', () => undefined);
  try {
    return await use(zip);
  } finally {
    // Closing is deferred by yauzl until every entry stream has ended or been destroyed.
    zip.close();
    await descriptorClosed;
  }
}

/** The archive's entries in order; a damaged central directory refuses the archive. */
async function* entriesOf(zip: ZipFile): AsyncGenerator<Entry> {
  const entries = zip.eachEntry();
  try {
    for (;;) {
      let next: IteratorResult<Entry>;
      try {
        next = await entries.next();
      } catch (err) {
        throw new ZipRefused(UNREADABLE, { cause: err });
      }
      if (next.done) {
        return;
      }
      yield next.value;
    }
  } finally {
    // Detaches eachEntry's listeners when the caller stops early.
    await entries.return?.();
  }
}

/** The refusal an error met while streaming an entry stands for, or the error itself. */
function refusalFor(err: unknown): unknown {
  if (err instanceof ZipRefused) {
    return err;
  }
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (typeof code === 'string') {
    // zlib's codes (Z_DATA_ERROR…) mean damaged data; others (ENOSPC…) are ours, not the archive's.
    return code.startsWith('Z_') ? new ZipRefused(UNREADABLE, { cause: err }) : err;
  }
  // yauzl's own errors carry no code: the archive's data is not what its headers describe.
  return new ZipRefused(UNREADABLE, { cause: err });
}

/** Raised inside writeEntry when one entry inflates beyond the per-file limit: only it is skipped. */
class EntryTooLarge extends Error {}

function untilClosed(stream: Writable): Promise<void> {
  return stream.closed ? Promise.resolve() : new Promise((resolve) => stream.once('close', resolve));
}

/** What the archive may still inflate to, and what one file may. */
interface Budget {
  used: number;
  limit: number;
  entryLimit: number;
}

/**
 * Streams one entry to `filePath`, counting the bytes it inflates to against the per-file limit and
 * the archive's budget: the counts, not the headers, hold the limits. Returns the file's size, or
 * undefined when it grew beyond the per-file limit, was removed, and is to be skipped.
 */
async function writeEntry(
  zip: ZipFile,
  entry: Entry,
  filePath: string,
  budget: Budget,
  written: string[],
): Promise<number | undefined> {
  // 'wx' refuses to write through anything already at this path, a planted link included.
  const handle = await openFile(filePath, 'wx');
  written.push(filePath);
  const output = handle.createWriteStream();
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      // A skipped file's bytes count too: they were inflated all the same, and the budget bounds the work.
      budget.used += chunk.length;
      if (budget.used > budget.limit) {
        done(new ZipRefused(tooLargeArchive(budget.limit)));
      } else if (size > budget.entryLimit) {
        done(new EntryTooLarge());
      } else {
        done(null, chunk);
      }
    },
  });
  try {
    const input = await zip.openReadStreamPromise(entry).catch((err: unknown) => {
      // A local header that is missing or points past the end of the file.
      throw new ZipRefused(UNREADABLE, { cause: err });
    });
    await pipeline(input, counter, output);
  } catch (err) {
    output.destroy();
    if (!(err instanceof EntryTooLarge)) {
      throw refusalFor(err);
    }
  } finally {
    await untilClosed(output);
  }
  if (size > budget.entryLimit) {
    await rm(filePath, { force: true });
    written.pop();
    return undefined;
  }
  // Within the limits, a size other than declared means damaged data (or a truncated stored entry).
  if (size !== entry.uncompressedSize) {
    throw new ZipRefused(UNREADABLE);
  }
  return size;
}

/**
 * The first pass: the central directory alone, so that an archive refused by what it declares is
 * refused before anything is written. Declared sizes only ever refuse or skip here, never admit:
 * writeEntry counts what each file really inflates to. Returns the archive's byte limit.
 */
async function checkDeclaredSizes(zip: ZipFile, maxTotalBytes: number, limits: ZipLimits): Promise<number> {
  if (zip.entryCount > limits.maxEntries) {
    throw new ZipRefused(TOO_MANY_FILES);
  }
  const limit = Math.min(maxTotalBytes, limits.maxTotalBytes);
  let declared = 0;
  for await (const entry of entriesOf(zip)) {
    // A file declared too large is skipped without being read, so it takes nothing from the total.
    if (planEntry(entry).kind === 'file' && entry.uncompressedSize <= limits.maxEntryBytes) {
      declared += entry.uncompressedSize;
      if (declared > limit) {
        throw new ZipRefused(tooLargeArchive(limit));
      }
    }
  }
  return limit;
}

async function extractEntries(zip: ZipFile, destDir: string, budget: Budget, written: string[]) {
  const files: ExtractedFile[] = [];
  const skipped: ZipSkip[] = [];
  for await (const entry of entriesOf(zip)) {
    const plan = planEntry(entry);
    if (plan.kind === 'skip') {
      skipped.push(plan.skip);
    } else if (plan.kind === 'file') {
      const filePath = path.join(destDir, `${String(files.length + 1).padStart(5, '0')}.part`);
      const size =
        entry.uncompressedSize > budget.entryLimit
          ? undefined
          : await writeEntry(zip, entry, filePath, budget, written);
      if (size === undefined) {
        skipped.push({ name: plan.name, reason: tooLargeFile(budget.entryLimit) });
      } else {
        files.push({ name: plan.name, path: filePath, size });
      }
    }
  }
  return { files, skipped };
}

/**
 * Extracts the files of `zipPath` into `destDir` as `00001.part`, `00002.part`… Unsafe entries
 * and files larger than `limits.maxEntryBytes` are skipped and reported; a dangerous or damaged
 * archive, or one inflating to more than `maxTotalBytes` (such as what is left of the user's
 * storage; never more than `limits.maxTotalBytes`), is refused with a `ZipRefused`, and then
 * nothing this call wrote is left behind.
 */
export async function extractZip(
  zipPath: string,
  destDir: string,
  maxTotalBytes: number = ZIP_LIMITS.maxTotalBytes,
  limits: ZipLimits = ZIP_LIMITS,
): Promise<{ files: ExtractedFile[]; skipped: ZipSkip[] }> {
  // Two passes over the central directory rather than keeping every entry: an entry holds its
  // name, extra fields and comment (up to 192 KiB), so 20,000 of them could take gigabytes.
  const limit = await withZip(zipPath, (zip) => checkDeclaredSizes(zip, maxTotalBytes, limits));
  await mkdir(destDir, { recursive: true });
  const written: string[] = [];
  const budget: Budget = { used: 0, limit, entryLimit: limits.maxEntryBytes };
  try {
    return await withZip(zipPath, (zip) => extractEntries(zip, destDir, budget, written));
  } catch (err) {
    await Promise.all(written.map((file) => rm(file, { force: true })));
    throw err;
  }
}
