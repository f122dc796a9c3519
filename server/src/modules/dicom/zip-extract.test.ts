import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildZip, type ZipEntrySpec } from '../../../test/zip-writer.js';
import { extractZip, ZIP_LIMITS, ZipRefused } from './zip-extract.js';

const OUTSIDE = 'The file names a path outside the ZIP.';
const UNREADABLE = 'The ZIP file could not be read.';
const MIB = 1024 * 1024;
/** The refusals that name a size limit, as the user reads them. */
const tooLargeFile = (limit: string) => `The file is larger than ${limit}, the most one file may take.`;
const tooLargeArchive = (limit: string) =>
  `The ZIP file expands to more than ${limit}, more than can be filed at once.`;

let root: string;
let zipPath: string;
let destDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'zip-extract-'));
  zipPath = path.join(root, 'work', 'upload.zip');
  destDir = path.join(root, 'work', 'out');
  await mkdir(path.dirname(zipPath));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function writeZip(specs: ZipEntrySpec[]): Promise<void> {
  await writeFile(zipPath, buildZip(specs));
}

/** Every path under `dir`, relative to it, sorted. */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.sort();
}

/** Descriptors this process holds on the archive or on anything under the destination. */
function openDescriptors(): string[] {
  if (!existsSync('/proc/self/fd')) {
    return [];
  }
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target === zipPath || target.startsWith(destDir) ? [target] : [];
    } catch {
      // The descriptor readdir itself used is gone by now.
      return [];
    }
  });
}

async function expectRefused(
  message: string,
  maxTotalBytes = ZIP_LIMITS.maxTotalBytes,
  limits = ZIP_LIMITS,
): Promise<void> {
  const error: unknown = await extractZip(zipPath, destDir, maxTotalBytes, limits).then(
    () => undefined,
    (err: unknown) => err,
  );
  // Looked at first thing after the promise settles: nothing may still be closing.
  expect(openDescriptors()).toEqual([]);
  expect(error).toBeInstanceOf(ZipRefused);
  expect((error as Error).message).toBe(message);
}

describe('extractZip: a normal archive', () => {
  it('extracts every file byte for byte under generated names, reporting normalised names', async () => {
    const image1 = randomBytes(200_000);
    const image2 = Buffer.alloc(50_000, 'DICM');
    const image3 = randomBytes(1000);
    const nestedZip = buildZip([{ name: 'inside.dcm', data: 'not opened' }]);
    await writeZip([
      { name: 'DICOMDIR', data: 'directory record', method: 'deflate' },
      { name: 'DICOM/' },
      { name: 'DICOM/PAT1/' },
      { name: 'DICOM/PAT1/IMG1', data: image1, method: 'deflate' },
      { name: 'DICOM/PAT1/IMG2', data: image2, method: 'store' },
      { name: 'DICOM/PAT2/IMG1', data: image3, method: 'deflate' },
      { name: './CD//EMPTY', data: '' },
      { name: Buffer.from('WIN\\IMG4'), data: 'written by .NET 4.5' },
      { name: 'inner.zip', data: nestedZip },
    ]);

    const result = await extractZip(zipPath, destDir);
    expect(openDescriptors()).toEqual([]);

    expect(result.skipped).toEqual([]);
    expect(result.files.map((file) => [file.name, file.size])).toEqual([
      ['DICOMDIR', 16],
      ['DICOM/PAT1/IMG1', image1.length],
      ['DICOM/PAT1/IMG2', image2.length],
      ['DICOM/PAT2/IMG1', image3.length],
      ['CD/EMPTY', 0],
      ['WIN/IMG4', 19],
      ['inner.zip', nestedZip.length],
    ]);
    const contents = await Promise.all(result.files.map((file) => readFile(file.path)));
    expect(contents).toEqual([
      Buffer.from('directory record'),
      image1,
      image2,
      image3,
      Buffer.alloc(0),
      Buffer.from('written by .NET 4.5'),
      nestedZip,
    ]);
    for (const file of result.files) {
      expect(path.dirname(file.path)).toBe(destDir);
      expect(path.basename(file.path)).toMatch(/^\d{5}\.part$/);
    }
    expect(await tree(destDir)).toEqual(result.files.map((file) => path.basename(file.path)).sort());
  });

  it('never writes over a file already in the destination', async () => {
    await writeZip([
      { name: 'IMG1', data: 'first' },
      { name: 'IMG2', data: 'second' },
    ]);
    await mkdir(destDir);
    await writeFile(path.join(destDir, '00002.part'), 'already here');

    await expect(extractZip(zipPath, destDir)).rejects.toMatchObject({ code: 'EEXIST' });

    expect(await tree(destDir)).toEqual(['00002.part']);
    expect(await readFile(path.join(destDir, '00002.part'), 'utf8')).toBe('already here');
  });
});

describe('extractZip: entries it skips or ignores', () => {
  it('skips names outside the archive and keeps the good files beside them', async () => {
    await writeZip([
      { name: 'DICOM/IMG1', data: 'good one' },
      { name: '../evil', data: 'evil' },
      { name: 'a/../../evil', data: 'evil', method: 'deflate' },
      { name: '/etc/passwd', data: 'evil' },
      { name: Buffer.from('C:\\evil'), data: 'evil' },
      { name: Buffer.from('..\\evil'), data: 'evil' },
      { name: Buffer.from('\\\\server\\share\\evil'), data: 'evil' },
      { name: 'c:evil', data: 'evil' },
      { name: Buffer.from('ok\0evil'), data: 'evil' },
      { name: 'DICOM/IMG2', data: 'good two', method: 'deflate' },
    ]);

    const result = await extractZip(zipPath, destDir);

    expect(result.files.map((file) => file.name)).toEqual(['DICOM/IMG1', 'DICOM/IMG2']);
    expect(await Promise.all(result.files.map((file) => readFile(file.path, 'utf8')))).toEqual([
      'good one',
      'good two',
    ]);
    expect(result.skipped).toEqual(
      [
        '../evil',
        'a/../../evil',
        '/etc/passwd',
        'C:/evil',
        '../evil',
        '//server/share/evil',
        'c:evil',
        'ok\0evil',
      ].map((name) => ({ name, reason: OUTSIDE })),
    );
    // Only the upload and the two files exist anywhere under the temporary root.
    expect(await tree(root)).toEqual([
      'work',
      'work/out',
      'work/out/00001.part',
      'work/out/00002.part',
      'work/upload.zip',
    ]);
  });

  it('skips links, encrypted files and unknown compression with their reasons', async () => {
    await writeZip([
      { name: 'DICOM/IMG1', data: 'image' },
      { name: 'DICOM/LINK', data: '/etc/passwd', unixMode: 0o120777 },
      { name: 'DICOM/SECRET', data: 'ciphertext', isEncrypted: true },
      { name: 'DICOM/SECRET2', data: 'ciphertext', isEncrypted: true, method: 'deflate' },
      { name: 'DICOM/BZIP', data: 'BZh9', method: 12 },
    ]);

    const result = await extractZip(zipPath, destDir);

    expect(result.files.map((file) => file.name)).toEqual(['DICOM/IMG1']);
    expect(result.skipped).toEqual([
      { name: 'DICOM/LINK', reason: 'Links inside ZIP files are not followed.' },
      { name: 'DICOM/SECRET', reason: 'Encrypted files cannot be read.' },
      { name: 'DICOM/SECRET2', reason: 'Encrypted files cannot be read.' },
      { name: 'DICOM/BZIP', reason: 'The file is compressed in a way that cannot be read.' },
    ]);
    expect(await tree(destDir)).toEqual(['00001.part']);
  });

  it('ignores folders and macOS metadata without reporting them', async () => {
    await writeZip([
      { name: '__MACOSX/' },
      { name: '__MACOSX/DICOM/._IMG1', data: 'resource fork' },
      { name: 'DICOM/._IMG1', data: 'AppleDouble' },
      { name: 'DICOM/', unixMode: 0o040755 },
      { name: 'EMPTYDIR', unixMode: 0o040755 },
      { name: 'DICOM/IMG1', data: 'image' },
    ]);

    const result = await extractZip(zipPath, destDir);

    expect(result).toEqual({
      files: [{ name: 'DICOM/IMG1', path: path.join(destDir, '00001.part'), size: 5 }],
      skipped: [],
    });
  });
});

/**
 * One slice of a CT as a scanner writes it: preamble, header, then 512×512 16-bit pixels that are
 * mostly air (zeros) around a small patch of noise, so the file deflates far beyond 100:1.
 */
function ctSlice(index: number): Buffer {
  const header = Buffer.concat([
    Buffer.alloc(128),
    Buffer.from('DICM'),
    Buffer.from(`1.2.826.0.1.3680043.8.498.${index}\0CT\0AXIAL\0`.padEnd(200, ' ')),
  ]);
  const pixels = Buffer.alloc(512 * 512 * 2);
  randomBytes(300).copy(pixels, 256 * 1024);
  return Buffer.concat([header, pixels]);
}

describe('extractZip: size limits, counted as the files inflate', () => {
  it('accepts a real folder that deflates far beyond 100:1, every file of it', async () => {
    const slices = Array.from({ length: 300 }, (_, index) => ctSlice(index));
    await writeZip([
      { name: 'DICOMDIR', data: 'directory record', method: 'deflate' },
      ...slices.map((data, index) => ({
        name: `DICOM/ST1/SE1/IM${index + 1}`,
        data,
        method: 'deflate' as const,
      })),
    ]);
    const total = slices.reduce((sum, slice) => sum + slice.length, 0);
    expect(total / (await stat(zipPath)).size).toBeGreaterThan(100);

    const result = await extractZip(zipPath, destDir);

    expect(result.skipped).toEqual([]);
    expect(result.files).toHaveLength(301);
    expect(result.files.slice(1).map((file) => file.size)).toEqual(slices.map((slice) => slice.length));
    expect(await readFile(result.files[300]!.path)).toEqual(slices[299]);
  });

  it('accepts a small archive of nearly blank images, however well it compresses', async () => {
    await writeZip([{ name: 'BLANK', data: Buffer.alloc(4 * 1024 * 1024), method: 'deflate' }]);

    const result = await extractZip(zipPath, destDir);
    expect(result.files.map((file) => file.size)).toEqual([4 * 1024 * 1024]);
  });

  it('skips a file larger than the per-file limit with its reason, keeping the files beside it', async () => {
    await writeZip([
      { name: 'DICOM/IMG1', data: 'first' },
      { name: 'DICOM/BIG', data: Buffer.alloc(2 * MIB), method: 'deflate' },
      { name: 'DICOM/IMG2', data: 'second', method: 'deflate' },
    ]);

    const result = await extractZip(zipPath, destDir, ZIP_LIMITS.maxTotalBytes, {
      ...ZIP_LIMITS,
      maxEntryBytes: MIB,
    });

    expect(result.files.map((file) => file.name)).toEqual(['DICOM/IMG1', 'DICOM/IMG2']);
    expect(await Promise.all(result.files.map((file) => readFile(file.path, 'utf8')))).toEqual([
      'first',
      'second',
    ]);
    expect(result.skipped).toEqual([{ name: 'DICOM/BIG', reason: tooLargeFile('1 MB') }]);
    expect(await tree(destDir)).toEqual(['00001.part', '00002.part']);
  });

  it('skips a file whose header declares it small once it inflates beyond the per-file limit', async () => {
    await writeZip([
      { name: 'DICOM/IMG1', data: randomBytes(1000) },
      { name: 'DICOM/LIAR', data: Buffer.alloc(10 * MIB), method: 'deflate', declaredSize: 10 },
      { name: 'DICOM/IMG2', data: 'after', method: 'deflate' },
    ]);

    const result = await extractZip(zipPath, destDir, ZIP_LIMITS.maxTotalBytes, {
      ...ZIP_LIMITS,
      maxEntryBytes: MIB,
    });
    expect(openDescriptors()).toEqual([]);

    expect(result.files.map((file) => [file.name, file.size])).toEqual([
      ['DICOM/IMG1', 1000],
      ['DICOM/IMG2', 5],
    ]);
    expect(result.skipped).toEqual([{ name: 'DICOM/LIAR', reason: tooLargeFile('1 MB') }]);
    expect(await tree(destDir)).toEqual(['00001.part', '00002.part']);
  });

  it('refuses an archive whose files declare more than the total limit, before writing anything', async () => {
    await writeZip([{ name: 'IMG1', data: randomBytes(2000) }]);

    await expectRefused(tooLargeArchive('1 KB'), 1024);

    expect(existsSync(destDir)).toBe(false);
    // The same archive within the limit is extracted.
    const result = await extractZip(zipPath, destDir, 2000);
    expect(result.files.map((file) => file.size)).toEqual([2000]);
  });

  it('refuses beyond the default total of 8 GB by the declared sizes alone', async () => {
    // Seventeen files that each claim 500 MiB: 8.3 GiB in all, in an archive of a few KB.
    await writeZip(
      Array.from({ length: 17 }, (_, index) => ({
        name: `IMG${index}`,
        data: 'small',
        method: 'deflate' as const,
        declaredSize: 500 * MIB,
      })),
    );

    await expectRefused(tooLargeArchive('8 GB'), ZIP_LIMITS.maxTotalBytes, {
      ...ZIP_LIMITS,
      maxEntryBytes: 512 * MIB,
    });
    expect(existsSync(destDir)).toBe(false);
  });

  it('stops once the bytes inflated exceed the total, whatever the headers declare, and removes what it wrote', async () => {
    await writeZip([
      { name: 'DICOM/IMG1', data: randomBytes(1000) },
      { name: 'DICOM/IMG2', data: Buffer.alloc(600 * 1024), method: 'deflate' },
      // Declared at 10 bytes, so the declared total stays under the limit.
      { name: 'DICOM/IMG3', data: Buffer.alloc(600 * 1024), method: 'deflate', declaredSize: 10 },
      { name: 'DICOM/IMG4', data: 'after' },
    ]);
    await mkdir(destDir);

    await expectRefused(tooLargeArchive('1 MB'), MIB);

    expect(await tree(destDir)).toEqual([]);
  });
});

describe('extractZip: archives it refuses', () => {
  it('refuses a file that inflates beyond its declared size, and removes what it wrote', async () => {
    await writeZip([
      { name: 'DICOM/IMG1', data: randomBytes(1000) },
      { name: 'DICOM/IMG2', data: Buffer.alloc(10 * 1000 * 1000), method: 'deflate', declaredSize: 10 },
      { name: 'DICOM/IMG3', data: 'after' },
    ]);
    await mkdir(destDir);

    await expectRefused(UNREADABLE);

    expect(await tree(destDir)).toEqual([]);
  });

  it('refuses an entry that inflates to fewer bytes than declared', async () => {
    await writeZip([
      { name: 'DICOM/IMG1', data: 'image' },
      { name: 'DICOM/IMG2', data: randomBytes(1000), method: 'deflate', declaredSize: 2000 },
    ]);
    await mkdir(destDir);

    await expectRefused(UNREADABLE);

    expect(await tree(destDir)).toEqual([]);
  });

  it('refuses too many entries before anything is written', async () => {
    const entries = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ name: `IMG${index}`, data: 'x' }));
    await writeZip(entries(4));

    const limits = { ...ZIP_LIMITS, maxEntries: 3 };
    await expectRefused('The ZIP file has too many files.', ZIP_LIMITS.maxTotalBytes, limits);
    expect(existsSync(destDir)).toBe(false);

    await writeZip(entries(3));
    const result = await extractZip(zipPath, destDir, ZIP_LIMITS.maxTotalBytes, limits);
    expect(result.files).toHaveLength(3);
  });

  it('refuses more entries than the default limit allows', async () => {
    await writeZip(Array.from({ length: ZIP_LIMITS.maxEntries + 1 }, (_, index) => ({ name: `F${index}` })));

    await expectRefused('The ZIP file has too many files.');
    expect(existsSync(destDir)).toBe(false);
  });

  it('refuses files that are not ZIP archives', async () => {
    await writeFile(zipPath, 'This is a text file, not an archive.\n'.repeat(100));
    await expectRefused(UNREADABLE);

    await writeFile(zipPath, '');
    await expectRefused(UNREADABLE);
  });

  it('refuses a truncated archive', async () => {
    const whole = buildZip([
      { name: 'DICOM/IMG1', data: randomBytes(5000), method: 'deflate' },
      { name: 'DICOM/IMG2', data: randomBytes(5000) },
    ]);
    await writeFile(zipPath, whole.subarray(0, whole.length - 30));
    await expectRefused(UNREADABLE);

    await writeFile(zipPath, whole.subarray(0, 6000));
    await expectRefused(UNREADABLE);
  });

  it('refuses a damaged central directory', async () => {
    const whole = buildZip([{ name: 'DICOM/IMG1', data: 'image' }]);
    const centralStart = whole.readUInt32LE(whole.length - 6);
    whole.writeUInt32LE(0xdeadbeef, centralStart);
    await writeFile(zipPath, whole);

    await expectRefused(UNREADABLE);
  });

  it('refuses damaged compressed data and removes the files written before it', async () => {
    await writeZip([
      { name: 'DICOM/IMG1', data: randomBytes(3000) },
      // 0xff opens a deflate block of the reserved type 3, which zlib rejects.
      { name: 'DICOM/IMG2', data: 'x'.repeat(100), method: 'deflate', storedBytes: Buffer.alloc(20, 0xff) },
    ]);
    await mkdir(destDir);

    await expectRefused(UNREADABLE);

    expect(await tree(destDir)).toEqual([]);
  });

  it('refuses a stored entry whose sizes disagree', async () => {
    await writeZip([{ name: 'DICOM/IMG1', data: randomBytes(100), declaredSize: 10 }]);

    await expectRefused(UNREADABLE);
  });
});

function hasTool(name: string): boolean {
  try {
    execFileSync('which', [name], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('against Info-ZIP', () => {
  it.skipIf(!hasTool('unzip'))("accepts the test writer's archives (unzip -t)", async () => {
    await writeZip([
      { name: 'DICOM/' },
      { name: 'DICOM/IMG1', data: randomBytes(10_000), method: 'deflate' },
      { name: 'DICOM/IMG2', data: randomBytes(10_000) },
      { name: 'DICOM/EMPTY', data: '', method: 'deflate' },
      { name: 'DICOM/LINK', data: 'IMG1', unixMode: 0o120777 },
      { name: 'DICOM/ZEROS', data: Buffer.alloc(MIB), method: 'deflate' },
    ]);

    const output = execFileSync('unzip', ['-t', zipPath], { encoding: 'utf8' });

    expect(output).toContain('No errors detected');
    const listing = execFileSync('unzip', ['-Z', '-l', zipPath], { encoding: 'utf8' });
    expect(listing).toMatch(/^lrwxrwxrwx .* DICOM\/LINK$/m);
    expect(listing).toMatch(/^drwxr-xr-x .* DICOM\/$/m);
  });

  async function writeSourceTree() {
    const source = path.join(root, 'cd');
    const images = { 'DICOM/PAT1/IMG1': randomBytes(30_000), 'DICOM/PAT1/IMG2': Buffer.alloc(30_000, 7) };
    await mkdir(path.join(source, 'DICOM', 'PAT1'), { recursive: true });
    await mkdir(path.join(source, 'DICOM', 'EMPTY'));
    for (const [name, data] of Object.entries(images)) {
      await writeFile(path.join(source, name), data);
    }
    await symlink('/etc/passwd', path.join(source, 'DICOM', 'LINK'));
    return { source, images };
  }

  async function contentsByName(files: { name: string; path: string }[]) {
    const entries = await Promise.all(files.map(async (file) => [file.name, await readFile(file.path)]));
    return Object.fromEntries(entries);
  }

  it.skipIf(!hasTool('zip'))('extracts what zip writes, skipping its links (zip -r -y)', async () => {
    const { source, images } = await writeSourceTree();
    execFileSync('zip', ['-q', '-r', '-y', zipPath, '.'], { cwd: source });

    const result = await extractZip(zipPath, destDir);

    expect(await contentsByName(result.files)).toEqual(images);
    expect(result.skipped).toEqual([
      { name: 'DICOM/LINK', reason: 'Links inside ZIP files are not followed.' },
    ]);
  });

  it.skipIf(!hasTool('zip'))('extracts entries with data descriptors (zip writing to a pipe)', async () => {
    const { source, images } = await writeSourceTree();
    // Written to a pipe, zip cannot seek back to fill in sizes, so it sets flag bit 3 and
    // appends data descriptors; -D leaves out folder entries, which it cannot store on a pipe.
    const archive = execFileSync('zip', ['-q', '-r', '-D', '-', 'DICOM/PAT1'], { cwd: source });
    expect(archive.readUInt16LE(6) & 0x0008).toBe(0x0008);
    await writeFile(zipPath, archive);

    const result = await extractZip(zipPath, destDir);

    expect(await contentsByName(result.files)).toEqual(images);
    expect(result.skipped).toEqual([]);
  });
});
