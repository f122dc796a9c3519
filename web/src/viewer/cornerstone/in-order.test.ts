import { describe, expect, it } from 'vitest';
import { inOrderByKey } from './in-order';

/** A piece of work that records when it starts and ends, and ends when told. */
function step(log: string[], name: string) {
  let finish: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const work = () => {
    log.push(`start ${name}`);
    return new Promise<string>((resolve, reject) => {
      finish = () => {
        log.push(`end ${name}`);
        resolve(name);
      };
      fail = (error) => {
        log.push(`fail ${name}`);
        reject(error);
      };
    });
  };
  return { work, finish: () => finish(), fail: (error: Error) => fail(error) };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('inOrderByKey', () => {
  it('starts the second save of one key only once the first has ended, even when it failed', async () => {
    const run = inOrderByKey();
    const log: string[] = [];
    const first = step(log, 'first');
    const second = step(log, 'second');
    const third = step(log, 'third');
    const firstDone = run('a', first.work);
    const secondDone = run('a', second.work);
    const thirdDone = run('a', third.work);
    await settle();
    expect(log).toEqual(['start first']);
    first.fail(new Error('offline'));
    await expect(firstDone).rejects.toThrow('offline');
    await settle();
    expect(log).toEqual(['start first', 'fail first', 'start second']);
    second.finish();
    await expect(secondDone).resolves.toBe('second');
    await settle();
    third.finish();
    await expect(thirdDone).resolves.toBe('third');
    expect(log).toEqual([
      'start first',
      'fail first',
      'start second',
      'end second',
      'start third',
      'end third',
    ]);
  });

  it('runs the work of other keys beside it', async () => {
    const run = inOrderByKey();
    const log: string[] = [];
    const a = step(log, 'a');
    const b = step(log, 'b');
    void run('a', a.work);
    const bDone = run('b', b.work);
    await settle();
    expect(log).toEqual(['start a', 'start b']);
    b.finish();
    await expect(bDone).resolves.toBe('b');
    a.finish();
  });
});
