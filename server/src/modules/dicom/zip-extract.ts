import { close, open } from 'node:fs';
import { mkdir, open as openFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import yauzl, { type Entry, type ZipFile } from 'yauzl';

/**
 * Extracts an uploaded ZIP (a CD's DICOM files) without trusting it. Every file is written under a
 * name made here, so no entry name can reach the disk; the limits below stop zip bombs, by the
 * sizes the archive declares before anything is written and by the bytes actually written.
 */
export interface ZipLimits {
  maxEntries: number;
  /** Bytes all extracted files may take together. */
  maxTotalBytes: number;
  /** How many times the ZIP file's own size the extracted files may take together… */
  maxRatio: number;
  /** …but never less than this, so that a small archive of nearly blank images is not refused. */
  minAllowedBytes: number;
}

export const ZIP_LIMITS: ZipLimits = {
  // A CD of a long study holds a few thousand files; this leaves room for several studies at once.
  maxEntries: 20_000,
  // The most a dual-layer DVD holds, rounded up: no real disc exceeds it.
  maxTotalBytes: 8 * 1024 ** 3,
  // DICOM deflates about 2–4× (up to ~20× for mostly blank images); bombs expand by 1,000× and more.
  maxRatio: 100,
  minAllowedBytes: 32 * 1024 ** 2,
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
const EXPANDS_TOO_MUCH = 'The ZIP file expands too much to be read safely.';
const UNREADABLE = 'The ZIP file could not be read.';

const OUTSIDE_PATH = 'The file names a path outside the ZIP.';
const LINK = 'Links inside ZIP files are not followed.';
const ENCRYPTED = 'Encrypted files cannot be read.';
const UNKNOWN_COMPRESSION = 'The file is compressed in a way that cannot be read.';

const S_IFMT = 0o170000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;

const OPEN_OPTIONS: yauzl.Options = {
  lazyEntries: true,
  autoClose: true,
  validateEntrySizes: true,
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
  // yauzl's own errors carry no code, and while streaming it raises only the validateEntrySizes
  // check: the entry inflated to more (or fewer) bytes than its header declared.
  return new ZipRefused(EXPANDS_TOO_MUCH, { cause: err });
}

function untilClosed(stream: Writable): Promise<void> {
  return stream.closed ? Promise.resolve() : new Promise((resolve) => stream.once('close', resolve));
}

interface Budget {
  used: number;
  limit: number;
}

/** Streams one entry to `filePath`, counting its bytes against the archive's budget. */
async function writeEntry(
  zip: ZipFile,
  entry: Entry,
  filePath: string,
  budget: Budget,
  written: string[],
): Promise<number> {
  // 'wx' refuses to write through anything already at this path, a planted link included.
  const handle = await openFile(filePath, 'wx');
  written.push(filePath);
  const output = handle.createWriteStream();
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      budget.used += chunk.length;
      // Declared sizes were checked before anything was written; this holds should they lie.
      done(budget.used > budget.limit ? new ZipRefused(EXPANDS_TOO_MUCH) : null, chunk);
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
    throw refusalFor(err);
  } finally {
    await untilClosed(output);
  }
  return size;
}

/** The first pass: the central directory alone, so a refusal comes before anything is written. */
async function checkDeclaredSizes(zip: ZipFile, limits: ZipLimits): Promise<number> {
  if (zip.entryCount > limits.maxEntries) {
    throw new ZipRefused(TOO_MANY_FILES);
  }
  const limit = Math.min(
    limits.maxTotalBytes,
    Math.max(limits.maxRatio * zip.fileSize, limits.minAllowedBytes),
  );
  let declared = 0;
  for await (const entry of entriesOf(zip)) {
    if (planEntry(entry).kind === 'file') {
      declared += entry.uncompressedSize;
      if (declared > limit) {
        throw new ZipRefused(EXPANDS_TOO_MUCH);
      }
    }
  }
  return limit;
}

async function extractEntries(zip: ZipFile, destDir: string, limit: number, written: string[]) {
  const files: ExtractedFile[] = [];
  const skipped: ZipSkip[] = [];
  const budget: Budget = { used: 0, limit };
  for await (const entry of entriesOf(zip)) {
    const plan = planEntry(entry);
    if (plan.kind === 'skip') {
      skipped.push(plan.skip);
    } else if (plan.kind === 'file') {
      const filePath = path.join(destDir, `${String(files.length + 1).padStart(5, '0')}.part`);
      const size = await writeEntry(zip, entry, filePath, budget, written);
      files.push({ name: plan.name, path: filePath, size });
    }
  }
  return { files, skipped };
}

/**
 * Extracts the files of `zipPath` into `destDir` as `00001.part`, `00002.part`… Unsafe entries
 * are skipped and reported; a dangerous or damaged archive is refused with a `ZipRefused`, and
 * then nothing this call wrote is left behind.
 */
export async function extractZip(
  zipPath: string,
  destDir: string,
  limits: ZipLimits = ZIP_LIMITS,
): Promise<{ files: ExtractedFile[]; skipped: ZipSkip[] }> {
  // Two passes over the central directory rather than keeping every entry: an entry holds its
  // name, extra fields and comment (up to 192 KiB), so 20,000 of them could take gigabytes.
  const limit = await withZip(zipPath, (zip) => checkDeclaredSizes(zip, limits));
  await mkdir(destDir, { recursive: true });
  const written: string[] = [];
  try {
    return await withZip(zipPath, (zip) => extractEntries(zip, destDir, limit, written));
  } catch (err) {
    await Promise.all(written.map((file) => rm(file, { force: true })));
    throw err;
  }
}
