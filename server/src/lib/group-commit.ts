/** More rows than this go in the next statement (PostgreSQL allows 65,535 parameters in one). */
const MAX_ROWS_PER_WRITE = 2_000;
/**
 * Writes in flight at once. With two, rows that arrive during a write go out at once in the
 * second instead of waiting for the first to end: a caller waits about one write, not one and a
 * half, while each statement still carries the rows of many requests.
 */
const MAX_WRITES_AT_ONCE = 2;

interface Waiter<T> {
  rows: T[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * Writes the rows that concurrent requests hand in together: while writes are in flight the
 * next requests' rows gather, and go in one statement when one ends. Each caller's promise settles
 * only when its rows are committed, so nothing waits in memory once a caller has been answered.
 * When a shared write fails, each caller's rows are written alone, so one bad row fails only its
 * own request.
 */
export class GroupCommit<T> {
  private waiting: Waiter<T>[] = [];
  private writes = 0;
  /** A write is about to start (at the next turn of the event loop) and will take what waits. */
  private isStarting = false;

  constructor(private readonly writeRows: (rows: T[]) => Promise<void>) {}

  write(rows: T[]): Promise<void> {
    if (rows.length === 0) {
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ rows, resolve, reject });
      if (!this.isStarting && this.writes < MAX_WRITES_AT_ONCE) {
        this.isStarting = true;
        this.writes += 1;
        // Let the requests of this turn of the event loop join this write too.
        setImmediate(() => {
          this.isStarting = false;
          void this.drain();
        });
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
    this.writes -= 1;
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
