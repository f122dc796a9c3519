import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dicomBundle } from '../../../test/dicom-bundle.js';
import { sampleCopy } from '../../../test/dicom-files.js';
import { earlyBundleReads } from './early-bundle-reads.js';
import { BundleRefused } from './study-bundle.js';

let root: string;
let tusDir: string;
let unpacked: string;

beforeAll(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-early-'));
  tusDir = path.join(root, 'uploads');
  unpacked = path.join(root, 'unpacked');
  await fs.mkdir(tusDir);
});
afterAll(() => fs.rm(root, { recursive: true, force: true }));

/** A bundle upload's file in the tus folder, as it stands when its upload finishes. */
async function bundleUpload(id: string, bytes: Buffer) {
  const file = path.join(tusDir, id);
  await fs.writeFile(file, bytes);
  return { id, file, size: bytes.length };
}

const earlyFolders = async () => (await fs.readdir(unpacked)).filter((name) => name.startsWith('early-'));

describe('bundles read ahead of their filing', () => {
  it('are read when their upload finishes, and handed over once, moved into the filing’s folder', async () => {
    const ct = await sampleCopy('CT_small.dcm');
    const upload = await bundleUpload('one', dicomBundle([{ path: 'CD/IM1', bytes: ct }]));
    earlyBundleReads.start(upload, tusDir);
    await expect.poll(earlyFolders).toHaveLength(1);

    const filing = path.join(root, 'filing');
    await fs.mkdir(filing);
    const reads = await earlyBundleReads.takeInto('one', path.join(filing, 'one'));
    expect(reads).toEqual([{ file: expect.objectContaining({ name: 'CD/IM1', size: ct.length }) }]);
    const [read] = reads!;
    const file = read && 'file' in read ? read.file.path : '';
    expect(path.dirname(file)).toBe(path.join(filing, 'one'));
    expect(await fs.readFile(file)).toEqual(ct);
    expect(await earlyFolders()).toEqual([]);

    // Taken once: another filing of the same upload reads the bundle itself.
    expect(await earlyBundleReads.takeInto('one', path.join(filing, 'again'))).toBeUndefined();
  });

  it('hand over a bundle cut short as extractBundle refuses it, with its folder', async () => {
    const whole = dicomBundle([{ path: 'IM1', bytes: await sampleCopy('CT_small.dcm') }]);
    const upload = await bundleUpload('cut', whole.subarray(0, whole.length - 40));
    earlyBundleReads.start(upload, tusDir);
    const moved = path.join(root, 'cut');
    await expect(earlyBundleReads.takeInto('cut', moved)).rejects.toBeInstanceOf(BundleRefused);
    expect((await fs.stat(moved)).isDirectory()).toBe(true);
    expect(await earlyFolders()).toEqual([]);
  });

  it('hand over a file that is no bundle as extractBundle refuses it, though it made no folder', async () => {
    const upload = await bundleUpload('none', Buffer.from('not a bundle at all'));
    earlyBundleReads.start(upload, tusDir);
    await expect(earlyBundleReads.takeInto('none', path.join(root, 'none'))).rejects.toBeInstanceOf(
      BundleRefused,
    );
  });

  it('remove the files of a read nobody took', async () => {
    const upload = await bundleUpload(
      'left',
      dicomBundle([{ path: 'IM1', bytes: await sampleCopy('CT_small.dcm') }]),
    );
    earlyBundleReads.start(upload, tusDir);
    await expect.poll(earlyFolders).toHaveLength(1);
    await earlyBundleReads.discard('left');
    expect(await earlyFolders()).toEqual([]);
    expect(await earlyBundleReads.takeInto('left', path.join(root, 'left'))).toBeUndefined();
  });

  it('leave to their filing the bundles beyond what may wait read ahead', async () => {
    const upload = await bundleUpload(
      'huge',
      dicomBundle([{ path: 'IM1', bytes: await sampleCopy('CT_small.dcm') }]),
    );
    earlyBundleReads.start({ ...upload, size: 2 * 1024 ** 3 }, tusDir);
    expect(await earlyFolders()).toEqual([]);
    expect(await earlyBundleReads.takeInto('huge', path.join(root, 'huge'))).toBeUndefined();
  });
});
