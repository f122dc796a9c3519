import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';
import { withOneRoundStatements } from './pglite-statements.js';
import type { FromThread, PgliteThreadOptions, ToThread, WireError } from './pglite-thread-messages.js';

/*
 * The embedded database's own thread (pglite-thread.ts is the other end). PGlite runs here as it
 * would on the main thread, with its locks, serializers and parsers; requests come in as messages
 * and every answer goes back on the same port, after any notification the request raised.
 */

const port = parentPort!;
const options = workerData as PgliteThreadOptions;

function send(message: FromThread, transfer: ArrayBuffer[] = []) {
  port.postMessage(message, transfer);
}

/** An error as it crosses the thread: its message and the fields PostgreSQL gave it (code, detail…). */
function wireError(err: unknown): WireError {
  if (!(err instanceof Error)) {
    return { name: 'Error', message: String(err), fields: {} };
  }
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(err)) {
    if (value === undefined || ['string', 'number', 'boolean'].includes(typeof value)) {
      fields[key] = value;
    }
  }
  return { name: err.name, message: err.message, fields };
}

/** The options of each kind of query met, kept so that their parsers are the same object each time. */
const optionsByKind = new Map<string, QueryOptions>();

/**
 * Drizzle's parsers keep some types' text; here they are rebuilt from the types' numbers, once per
 * kind (a few exist), so the parsers merged with PGlite's are merged once too (pglite-statements.ts).
 */
function queryOptions(keepText: number[] | undefined, rowMode: 'array' | 'object' | undefined): QueryOptions {
  const kind = `${rowMode ?? ''}:${(keepText ?? []).join(',')}`;
  let options = optionsByKind.get(kind);
  if (!options) {
    const parsers = Object.fromEntries((keepText ?? []).map((type) => [type, (value: string) => value]));
    options = { rowMode, parsers };
    optionsByKind.set(kind, options);
  }
  return options;
}

const client = await PGlite.create({
  ...(options.dataDir ? { dataDir: options.dataDir } : {}),
  ...(options.loadDataDir ? { loadDataDir: new Blob([options.loadDataDir]) } : {}),
});
const statements = withOneRoundStatements(client);

/** Open transactions by number: each holds PGlite's transaction until the main thread ends it. */
const transactions = new Map<
  number,
  { tx: Transaction; end: (commit: boolean) => void; outcome: () => Promise<void> }
>();
/** What ends a transaction the main thread rolled back: PGlite sends ROLLBACK and rethrows it. */
class RolledBack extends Error {}
const stopListening = new Map<number, () => Promise<void>>();

async function handle(message: ToThread): Promise<unknown> {
  switch (message.kind) {
    case 'query': {
      const target =
        message.transaction === undefined ? statements : transactions.get(message.transaction)?.tx;
      if (!target) {
        throw new Error('Transaction is closed');
      }
      return target.query(message.text, message.params, queryOptions(message.keepText, message.rowMode));
    }
    case 'exec': {
      const target = message.transaction === undefined ? client : transactions.get(message.transaction)?.tx;
      if (!target) {
        throw new Error('Transaction is closed');
      }
      return target.exec(message.text);
    }
    case 'begin': {
      // PGlite's own transaction, held open until `end`: it sends BEGIN, then COMMIT or ROLLBACK.
      let outcome!: Promise<void>;
      await new Promise<void>((began, failed) => {
        outcome = statements.transaction(
          (tx) =>
            new Promise<void>((committed, rolledBack) => {
              transactions.set(message.transaction, {
                tx,
                end: (commit) => (commit ? committed() : rolledBack(new RolledBack())),
                outcome: () => outcome,
              });
              began();
            }),
        );
        // BEGIN failing rejects this; after it, `end` hears how the transaction ended.
        outcome.catch(failed);
      });
      return undefined;
    }
    case 'end': {
      const open = transactions.get(message.transaction);
      if (!open) {
        throw new Error('Transaction is closed');
      }
      transactions.delete(message.transaction);
      open.end(message.commit);
      try {
        await open.outcome();
      } catch (err) {
        if (!(err instanceof RolledBack)) {
          throw err;
        }
      }
      return undefined;
    }
    case 'listen': {
      const stop = await client.listen(message.channel, (payload) =>
        send({ kind: 'notification', listener: message.listener, payload }),
      );
      stopListening.set(message.listener, stop);
      return undefined;
    }
    case 'unlisten':
      await stopListening.get(message.listener)?.();
      stopListening.delete(message.listener);
      return undefined;
    case 'dump': {
      const dump = await client.dumpDataDir('none');
      return new Uint8Array(await dump.arrayBuffer());
    }
    case 'close':
      await client.close();
      return undefined;
  }
}

port.on('message', (message: ToThread) => {
  handle(message).then(
    (result) => {
      const transfer = result instanceof Uint8Array ? [result.buffer as ArrayBuffer] : [];
      send({ kind: 'answer', id: message.id, result }, transfer);
      if (message.kind === 'close') {
        port.close();
      }
    },
    (err: unknown) => send({ kind: 'answer', id: message.id, error: wireError(err) }),
  );
});

send({ kind: 'ready' });
