import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BatchSnapshot } from './upload-batch';
import { PROGRESS_RENDER_MS, subscribeThrottled } from './use-upload-batch';

/** A batch that reports what the test tells it to. */
function fakeBatch() {
  let listener: (snapshot: BatchSnapshot) => void = () => undefined;
  const batch = {
    current: { state: 'running', filesDone: 0 } as unknown as BatchSnapshot,
    subscribe(next: (snapshot: BatchSnapshot) => void) {
      listener = next;
      return () => undefined;
    },
    report(change: Partial<BatchSnapshot>) {
      batch.current = { ...batch.current, ...change };
      listener(batch.current);
    },
  };
  return batch;
}

describe('subscribeThrottled', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('shows progress at most once per interval, with the newest figures', () => {
    const batch = fakeBatch();
    const shown: BatchSnapshot[] = [];
    subscribeThrottled(batch, (snapshot) => shown.push(snapshot));
    for (let done = 1; done <= 50; done += 1) {
      batch.report({ filesDone: done });
    }
    expect(shown).toHaveLength(0);
    vi.advanceTimersByTime(PROGRESS_RENDER_MS);
    expect(shown.map((snapshot) => snapshot.filesDone)).toEqual([50]);
  });

  it('shows a change of state at once, and nothing after unsubscribing', () => {
    const batch = fakeBatch();
    const shown: BatchSnapshot[] = [];
    const unsubscribe = subscribeThrottled(batch, (snapshot) => shown.push(snapshot));
    batch.report({ filesDone: 3 });
    batch.report({ state: 'paused' });
    expect(shown.map((snapshot) => [snapshot.state, snapshot.filesDone])).toEqual([['paused', 3]]);
    batch.report({ filesDone: 4 });
    unsubscribe();
    vi.advanceTimersByTime(PROGRESS_RENDER_MS * 2);
    expect(shown).toHaveLength(1);
  });
});
