import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeWorkDir, makeWorkFiles, removeStaleWorkDirs } from './work-dirs.js';

describe('working folders of filings', () => {
  it('are made beside the tus folder, and those a crash left behind for a day are removed', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-work-'));
    const tusDir = path.join(root, 'uploads');
    const stale = await makeWorkDir(tusDir, 'study-');
    const fresh = await makeWorkDir(tusDir, 'study-');
    expect(path.dirname(stale)).toBe(path.join(root, 'unpacked'));
    await fs.writeFile(path.join(stale, '1.dcm'), 'x');
    const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
    await fs.utimes(stale, twoDaysAgo, twoDaysAgo);

    await removeStaleWorkDirs(tusDir, 24 * 3600 * 1000);
    await expect(fs.stat(stale)).rejects.toThrow();
    expect((await fs.stat(fresh)).isDirectory()).toBe(true);
    await fs.rm(root, { recursive: true, force: true });
  });

  it('does nothing when no filing ever ran', async () => {
    await expect(
      removeStaleWorkDirs(path.join(os.tmpdir(), 'ra-none', 'uploads'), 1),
    ).resolves.toBeUndefined();
  });
});

describe("a request's working files", () => {
  it('share one folder per process, which the clean-up leaves alone, and are removed with the request', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-work-'));
    const tusDir = path.join(root, 'uploads');
    const first = await makeWorkFiles(tusDir);
    const second = await makeWorkFiles(tusDir);
    const [a, b] = [first.pathOf('1.dcm'), second.pathOf('1.dcm')];
    expect(a).not.toBe(b);
    expect(path.dirname(a)).toBe(path.dirname(b));
    await fs.writeFile(a, 'x');
    await fs.writeFile(b, 'y');
    // Even when it looks old, the folder this process uses stays.
    const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
    await fs.utimes(path.dirname(a), twoDaysAgo, twoDaysAgo);
    await removeStaleWorkDirs(tusDir, 24 * 3600 * 1000);
    expect(await fs.readFile(b, 'utf8')).toBe('y');

    await first.remove();
    await expect(fs.stat(a)).rejects.toThrow();
    expect(await fs.readFile(b, 'utf8')).toBe('y');
    await second.remove();
    expect(await fs.readdir(path.dirname(a))).toEqual([]);

    // Files the caller moved into storage are not looked for again.
    const third = await makeWorkFiles(tusDir);
    const [named, left] = [third.pathOf('1.dcm'), third.pathOf('2.dcm')];
    await fs.writeFile(named, 'moved, as far as the caller knows');
    await fs.writeFile(left, 'z');
    await third.remove(new Set([named]));
    expect(await fs.readdir(path.dirname(a))).toEqual([path.basename(named)]);
    await fs.rm(root, { recursive: true, force: true });
  });
});
