/** What the embedded database's thread is started with (pglite-thread.ts). */
export interface PgliteThreadOptions {
  /** Its data folder; none: in memory. */
  dataDir?: string;
  /** A dump (PGlite's dumpDataDir) to start from, as bytes. */
  loadDataDir?: Uint8Array;
}

/** Requests to the thread, each answered by an `answer` of the same id. */
export type ToThread = { id: number } & (
  | {
      kind: 'query';
      text: string;
      params: unknown[];
      rowMode?: 'array' | 'object';
      /** Types whose values stay text (what Drizzle's parsers ask for). */
      keepText?: number[];
      transaction?: number;
    }
  | { kind: 'exec'; text: string; transaction?: number }
  | { kind: 'begin'; transaction: number }
  | { kind: 'end'; transaction: number; commit: boolean }
  | { kind: 'listen'; channel: string; listener: number }
  | { kind: 'unlisten'; listener: number }
  | { kind: 'dump' }
  | { kind: 'close' }
);

/** An error as it crosses threads: PostgreSQL's fields (code, detail, …) travel with it. */
export interface WireError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

export type FromThread =
  | { kind: 'ready' }
  | { kind: 'answer'; id: number; result?: unknown; error?: WireError }
  | { kind: 'notification'; listener: number; payload: string };
