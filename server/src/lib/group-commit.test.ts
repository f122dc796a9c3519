import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  it('writes the rows of concurrent callers together and settles each only after its write', async () => {
    const writes: number[][] = [];
    let release = () => undefined as void;
    const writer = new GroupCommit<number>(async (rows) => {
      writes.push(rows);
      if (writes.length === 1) {
        await new Promise<void>((resolve) => (release = resolve));
      }
    });
    const settled: number[] = [];
    const first = writer.write([1]).then(() => settled.push(1));
    await new Promise((resolve) => setImmediate(resolve));
    // These arrive while the first write is in flight: they wait for it and go in one statement.
    const rest = [writer.write([2, 3]), writer.write([4])].map((p, i) => p.then(() => settled.push(i + 2)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toEqual([]);
    release();
    await Promise.all([first, ...rest]);
    expect(writes).toEqual([[1], [2, 3, 4]]);
    expect(settled).toEqual([1, 2, 3]);
  });

  it("fails only the caller whose row cannot be written, after the others' rows are written", async () => {
    const written: string[] = [];
    const writer = new GroupCommit<string>(async (rows) => {
      if (rows.includes('bad')) {
        throw new Error('constraint');
      }
      written.push(...rows);
    });
    const results = await Promise.allSettled([
      writer.write(['a']),
      writer.write(['bad']),
      writer.write(['b']),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(written.sort()).toEqual(['a', 'b']);
  });
});
