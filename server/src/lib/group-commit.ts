/** More rows than this go in the next statement (PostgreSQL allows 65,535 parameters in one). */
const MAX_ROWS_PER_WRITE = 2_000;

interface Waiter<T> {
  rows: T[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Writes the rows that concurrent requests hand in together: while one write is in flight the
 * next requests' rows gather, and go in one statement when it ends. Each caller's promise settles
 * only when its rows are committed, so nothing waits in memory once a caller has been answered.
 * When a shared write fails, each caller's rows are written alone, so one bad row fails only its
 * own request.
 */
export class GroupCommit<T> {
  private waiting: Waiter<T>[] = [];
  private isWriting = false;

  constructor(private readonly writeRows: (rows: T[]) => Promise<void>) {}

  write(rows: T[]): Promise<void> {
    if (rows.length === 0) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ rows, resolve, reject });
      if (!this.isWriting) {
        this.isWriting = true;
        // Let the requests of this turn of the event loop join the first write too.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.waiting.length > 0) {
      const batch = this.takeBatch();
      try {
        await this.writeRows(batch.flatMap((waiter) => waiter.rows));
        batch.forEach((waiter) => waiter.resolve());
      } catch (err) {
        if (batch.length === 1) {
          batch[0]!.reject(err);
        } else {
          await Promise.all(
            batch.map((waiter) => this.writeRows(waiter.rows).then(waiter.resolve, waiter.reject)),
          );
        }
      }
    }
    this.isWriting = false;
  }

  private takeBatch(): Waiter<T>[] {
    let count = 0;
    let taken = 0;
    while (
      taken < this.waiting.length &&
      (taken === 0 || count + this.waiting[taken]!.rows.length <= MAX_ROWS_PER_WRITE)
    ) {
      count += this.waiting[taken]!.rows.length;
      taken += 1;
    }
    return this.waiting.splice(0, taken);
  }
}
