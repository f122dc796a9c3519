/**
 * Runs the work given for one key one at a time, in the order it was given; work for other keys
 * runs beside it. A failed piece does not stop the next. For saves of one annotation: two PUTs in
 * flight at once could be stored out of order (a server of several instances answers them apart),
 * and the older drawing would win.
 */
export function inOrderByKey() {
  const tails = new Map<string, Promise<unknown>>();
  return function run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = tails.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) {
        tails.delete(key);
      }
    });
    return next;
  };
}
