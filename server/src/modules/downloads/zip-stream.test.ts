import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import type { Storage } from '../storage/index.js';
import { etagOf, streamZip, type ZipPlan } from './zip-stream.js';

/*
 * The ZIP writer alone (docs/api.md §12.4): the size it announces is the size it writes, the
 * same plan gives the same bytes, and a client that goes away stops the reading of files.
 */

const MIB = 1024 * 1024;

/** A storage whose files are `size` bytes of their key's first letter; counts the files opened and closed. */
function fakeStorage(size: number) {
  const counts = { opened: 0, closed: 0 };
  const storage = {
    read: (key: string) => {
      counts.opened += 1;
      let left = size;
      const stream = new Readable({
        read() {
          const n = Math.min(64 * 1024, left);
          left -= n;
          this.push(n > 0 ? Buffer.alloc(n, key.charCodeAt(0)) : null);
        },
      });
      stream.on('close', () => {
        counts.closed += 1;
      });
      return Promise.resolve(stream);
    },
  } as unknown as Storage;
  return { storage, counts };
}

function planOf(files: number, size: number): ZipPlan {
  return {
    generated: [{ path: 'index.html', data: Buffer.from('<p>hello</p>') }],
    stored: Array.from({ length: files }, (_, index) => ({
      path: `DICOM/S0001/SE0001/IM${String(index + 1).padStart(6, '0')}`,
      storageKey: `studies/${index}`,
      size,
      itemId: 'item',
    })),
    mtime: new Date(Date.UTC(2026, 0, 2)),
  };
}

describe('streamZip', () => {
  it('writes exactly the size it announces, the same bytes every time', async () => {
    const plan = planOf(3, 100_000);
    const first = streamZip(fakeStorage(100_000).storage, plan);
    const second = streamZip(fakeStorage(100_000).storage, plan);
    const [a, b] = await Promise.all([buffer(first.body), buffer(second.body)]);
    expect(a.length).toBe(first.size);
    expect(a.equals(b)).toBe(true);
    expect(etagOf(plan)).toBe(etagOf(planOf(3, 100_000)));
    expect(etagOf(plan)).not.toBe(etagOf(planOf(4, 100_000)));
  });

  it('stops reading files when the client goes away', async () => {
    const { storage, counts } = fakeStorage(MIB);
    const zip = streamZip(storage, planOf(50, MIB));
    await new Promise<void>((resolve) => {
      zip.body.once('data', () => resolve());
    });
    zip.body.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Backpressure: only the first file or two were opened, and the open one was closed.
    expect(counts.opened).toBeLessThanOrEqual(2);
    expect(counts.closed).toBe(counts.opened);
  });

  it('stops reading files after the last byte of a range', async () => {
    const { storage, counts } = fakeStorage(MIB);
    const zip = streamZip(storage, planOf(50, MIB), () => ({ start: 10, end: MIB + 10 }));
    const bytes = await buffer(zip.body);
    expect(bytes.length).toBe(MIB + 1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(counts.opened).toBeLessThanOrEqual(3);
  });

  it('fails the stream, not silently, when a stored file cannot be read', async () => {
    const { storage } = fakeStorage(1000);
    const failing = {
      read: (key: string) =>
        key === 'studies/1' ? Promise.reject(new Error('missing file')) : storage.read(key),
    } as unknown as Storage;
    const zip = streamZip(failing, planOf(3, 1000));
    await expect(buffer(zip.body)).rejects.toThrow('missing file');
  });
});
