import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app.js';
import { createPhysician } from '../../../test/factories.js';
import { ctPhantom, writeCtPhantom } from '../../../test/ct-phantom.js';
import { freePort } from '../../../test/free-port.js';
import { addDicomNode } from './node-registry.service.js';

const run = promisify(execFile);
let work: string;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'ra-dimse-bounds-'));
});
afterAll(() => fs.rm(work, { recursive: true, force: true }));

/** An app with a DICOM node and one registered AE title, under the given settings. */
async function nodeWith(env: Record<string, string>): Promise<{ t: TestApp; port: number }> {
  const port = await freePort();
  const t = await createTestApp({ DICOM_PORT: String(port), ...env });
  const physician = await createPhysician(t.database.db);
  await addDicomNode(t.database.db, { physician: physician.email, 'ae-title': 'BOUNDS' });
  return { t, port };
}

/** dcmsend's verbose output: one "Received C-STORE Response (…)" line per instance, in order. */
async function send(port: number, files: string[]): Promise<string[]> {
  const args = ['-v', '-aet', 'BOUNDS', '-aec', 'RADARCHIVE', '127.0.0.1', String(port), ...files];
  const output = await run('dcmsend', args).then(
    ({ stdout, stderr }) => stdout + stderr,
    (err: { stdout: string; stderr: string }) => err.stdout + err.stderr,
  );
  return [...output.matchAll(/Received C-STORE Response \(([^)]*)\)/g)].map((match) => match[1]!);
}

describe('the DICOM node bounds', () => {
  it('refuses an instance larger than DICOM_MAX_INSTANCE_BYTES (out of resources), alone', async () => {
    const { t, port } = await nodeWith({ DICOM_MAX_INSTANCE_BYTES: String(1024 * 1024) });
    try {
      const small = await writeCtPhantom(
        path.join(work, 'small'),
        ctPhantom({ slices: 2, rows: 64, columns: 64 }),
      );
      // 800 × 800 × 2 bytes: 1.28 MB of pixels.
      const [large] = await writeCtPhantom(
        path.join(work, 'large'),
        ctPhantom({ slices: 1, rows: 800, columns: 800 }),
      );
      expect(await send(port, [small[0]!, large!, small[1]!])).toEqual([
        'Success',
        'Refused: OutOfResources',
        'Success',
      ]);
    } finally {
      await t.close();
    }
  });

  it("refuses instances past the physician's storage quota (out of resources)", async () => {
    // About 21 KB: two 64 × 64 slices of about 10 KB fit, a third does not.
    const { t, port } = await nodeWith({ STORAGE_QUOTA_GB: String(21_000 / 1024 ** 3) });
    try {
      const files = await writeCtPhantom(
        path.join(work, 'quota'),
        ctPhantom({ slices: 3, rows: 64, columns: 64 }),
      );
      const sizes = await Promise.all(files.map(async (file) => (await fs.stat(file)).size));
      expect(sizes[0]! + sizes[1]!).toBeLessThan(21_000);
      expect(await send(port, files)).toEqual(['Success', 'Success', 'Refused: OutOfResources']);
    } finally {
      await t.close();
    }
  });
});
