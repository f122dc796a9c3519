import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import type { FromThread, PgliteThreadOptions, ToThread, WireError } from './pglite-thread-messages.js';

/*
 * The embedded database (PGlite) on a thread of its own. PGlite's WebAssembly runs each statement
 * to its end without yielding, so on the main thread every statement stops every request for its
 * length: filing one DICOM instance was about 4 ms of the main thread's 7.5 ms. Here the main thread
 * only sends requests and reads answers; PGlite itself, with its locks, statements, serializers and
 * parsers, runs in pglite-thread-worker.ts as it would here.
 *
 * This is the part of PGlite's interface the application and Drizzle use: `query`, `exec`,
 * `transaction`, `listen`, `dumpDataDir` and `close`. Two of PGlite's query options cannot cross a
 * thread and are refused: `blob` (COPY) and caller-made serializers. Caller-made parsers can only
 * keep a type's text, which is all Drizzle's do.
 */

const WORKER_ENTRY = new URL('./pglite-thread-worker-entry.js', import.meta.url);

/** An error of PostgreSQL's as PGlite throws it, with its fields (code, detail, …). */
export class DatabaseError extends Error {}

function errorOf(wire: WireError): Error {
  // PostgreSQL's errors carry a severity and a code; anything else is an error of PGlite's own.
  const err = 'severity' in wire.fields ? new DatabaseError(wire.message) : new Error(wire.message);
  err.name = wire.name;
  return Object.assign(err, wire.fields);
}

type Request = ToThread extends infer T ? (T extends ToThread ? Omit<T, 'id'> : never) : never;

export class PgliteThread {
  private nextId = 1;
  private nextTransaction = 1;
  private nextListener = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(err: Error): void }>();
  private readonly listeners = new Map<number, (payload: string) => void>();
  /** Set once the thread is gone: every later call fails with it. */
  private stopped: Error | undefined;
  private isClosing = false;

  private constructor(
    private readonly worker: Worker,
    onFailure: ((err: Error) => void) | undefined,
  ) {
    worker.on('message', (message: FromThread) => this.receive(message));
    const fail = (err: Error) => {
      const wasRunning = !this.stopped && !this.isClosing;
      this.stop(err);
      if (wasRunning) {
        onFailure?.(err);
      }
    };
    worker.on('error', (err) => fail(new Error(`The embedded database failed: ${err.message}`)));
    worker.on('exit', (code) => fail(new Error(`The embedded database stopped (exit code ${code}).`)));
  }

  /**
   * Starts PGlite on its thread; resolves once it is ready for statements. `onFailure` hears of the
   * thread failing or stopping other than by `close`, after which every call fails.
   */
  static async open(options: PgliteThreadOptions, onFailure?: (err: Error) => void): Promise<PgliteThread> {
    const worker = new Worker(WORKER_ENTRY, {
      workerData: options,
      transferList: options.loadDataDir ? [options.loadDataDir.buffer as ArrayBuffer] : [],
    });
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromThread) => {
        if (message.kind === 'ready') {
          worker.off('error', reject);
          worker.off('message', onMessage);
          resolve();
        }
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`The embedded database did not start (exit code ${code}).`)),
      );
    });
    const thread = new PgliteThread(worker, onFailure);
    // Only a call in flight keeps the process alive, as with PGlite in this thread.
    worker.unref();
    return thread;
  }

  private receive(message: FromThread) {
    if (message.kind === 'notification') {
      this.listeners.get(message.listener)?.(message.payload);
      return;
    }
    if (message.kind !== 'answer') {
      return;
    }
    const call = this.pending.get(message.id);
    this.pending.delete(message.id);
    if (this.pending.size === 0) {
      this.worker.unref();
    }
    if (message.error) {
      call?.reject(errorOf(message.error));
    } else {
      call?.resolve(message.result);
    }
  }

  private stop(reason: Error) {
    this.stopped ??= reason;
    for (const call of this.pending.values()) {
      call.reject(this.stopped);
    }
    this.pending.clear();
  }

  private call<T>(request: Request): Promise<T> {
    if (this.stopped) {
      return Promise.reject(this.stopped);
    }
    const id = this.nextId++;
    if (this.pending.size === 0) {
      this.worker.ref();
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }

  private queryRequest(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    transaction?: number,
  ) {
    if (options?.blob || options?.serializers) {
      throw new Error('The embedded database thread takes no blob and no serializers of the caller.');
    }
    const keepText = options?.parsers ? Object.keys(options.parsers).map(Number) : undefined;
    return { kind: 'query' as const, text, params, rowMode: options?.rowMode, keepText, transaction };
  }

  query<T>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    return this.call(this.queryRequest(text, params, options));
  }

  exec(text: string): Promise<Results[]> {
    return this.call({ kind: 'exec', text });
  }

  /** PGlite's transaction: BEGIN, the callback's statements, then COMMIT, or ROLLBACK if it throws. */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const transaction = this.nextTransaction++;
    await this.call({ kind: 'begin', transaction });
    let isClosed = false;
    const closedError = () => Promise.reject(new Error('Transaction is closed'));
    const end = async (commit: boolean) => {
      isClosed = true;
      await this.call({ kind: 'end', transaction, commit });
    };
    const tx = {
      query: <R>(text: string, params: unknown[] = [], options?: QueryOptions) =>
        isClosed
          ? closedError()
          : this.call<Results<R>>(this.queryRequest(text, params, options, transaction)),
      exec: (text: string) =>
        isClosed ? closedError() : this.call<Results[]>({ kind: 'exec', text, transaction }),
      rollback: () => end(false),
      get closed() {
        return isClosed;
      },
    };
    try {
      const result = await callback(tx as unknown as Transaction);
      if (!isClosed) {
        await end(true);
      }
      return result;
    } catch (err) {
      if (!isClosed) {
        await end(false);
      }
      throw err;
    }
  }

  /** LISTENs on `channel`; its notifications reach `callback` before the statement that raised them resolves. */
  async listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>> {
    const listener = this.nextListener++;
    this.listeners.set(listener, callback);
    await this.call({ kind: 'listen', channel, listener });
    return async () => {
      this.listeners.delete(listener);
      await this.call({ kind: 'unlisten', listener });
    };
  }

  async dumpDataDir(): Promise<Blob> {
    return new Blob([await this.call<Uint8Array>({ kind: 'dump' })]);
  }

  async close(): Promise<void> {
    if (this.stopped) {
      return;
    }
    this.isClosing = true;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    await this.call({ kind: 'close' });
    this.worker.ref();
    this.stop(new Error('PGlite is closed'));
    await exited;
  }
}
