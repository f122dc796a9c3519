import { describe, expect, it } from 'vitest';
import { GroupCommit } from './group-commit.js';

describe('GroupCommit', () => {
  it('writes the rows of concurrent callers together, two statements at most in flight, each settled after its write', async () => {
    const writes: number[][] = [];
    const releases: (() => void)[] = [];
    const writer = new GroupCommit<number>(async (rows) => {
      writes.push(rows);
      await new Promise<void>((resolve) => releases.push(resolve));
    });
    const settled: number[] = [];
    const track = (rows: number[]) => writer.write(rows).then(() => settled.push(rows[0]!));
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

    const first = [track([1]), track([2])];
    await nextTurn();
    // Callers of one turn of the event loop share a statement.
    expect(writes).toEqual([[1, 2]]);
    const second = [track([3]), track([4, 5])];
    await nextTurn();
    // Arrived while the first was in flight: they go out at once, in a second statement.
    expect(writes).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    const third = [track([6]), track([7])];
    await nextTurn();
    // Two statements in flight: these wait for one of them to end.
    expect(writes).toHaveLength(2);
    expect(settled).toEqual([]);

    releases[1]!();
    await nextTurn();
    expect(settled).toEqual([3, 4]);
    expect(writes.at(-1)).toEqual([6, 7]);
    releases[0]!();
    releases[2]!();
    await Promise.all([...first, ...second, ...third]);
    expect(settled).toEqual([3, 4, 1, 2, 6, 7]);
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
