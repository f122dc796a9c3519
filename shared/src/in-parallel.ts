/** Runs `work` on each item, at most `limit` at a time, and resolves when all are done. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  async function worker() {
    while (next < items.length) {
      await work(items[next++]!);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
