import {
  parse,
  protocol,
  type PGlite,
  type QueryOptions,
  type Results,
  type Transaction,
} from '@electric-sql/pglite';

/*
 * PGlite's own `query` sends a statement as six protocol rounds into the WebAssembly database
 * (parse, describe the statement, bind, describe the portal, execute, sync), each with its own
 * crossing and parsing: about 1.7 ms for `select 1` on this machine. Here each SQL text is prepared
 * once as a named statement, its parameter types learned then, and every later run is one round
 * of bind, describe, execute and sync (0.4 ms). A named statement also keeps its parse and, after a
 * few runs, its plan: a four-table DICOMweb lookup spent 1.2 ms of its 1.9 ms planning each time.
 * Everything else is PGlite's: its locks, its serializers and parsers, its results.
 */

/**
 * Statements kept prepared: the application's statements, several times over. The oldest is
 * closed when another is prepared, so the database's memory for them stays bounded.
 */
const MAX_PREPARED_STATEMENTS = 500;

/** PostgreSQL's answer when a table under a kept plan changed its columns (cached plan). */
const CHANGED_RESULT_TYPE = 'cached plan must not change result type';

interface Prepared {
  name: string;
  types: number[];
}

function joined(messages: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(messages.reduce((length, message) => length + message.length, 0));
  let offset = 0;
  for (const message of messages) {
    all.set(message, offset);
    offset += message.length;
  }
  return all;
}

type Query = <T>(text: string, params?: unknown[], options?: QueryOptions) => Promise<Results<T>>;

/**
 * A PGlite client for Drizzle whose `query` (and its transactions' `query`) sends each statement in
 * one round. Called only where PGlite's own `query` would run the statement: under its locks, and
 * outside a transaction followed by its write to the file system.
 */
export function withOneRoundStatements(client: PGlite): PGlite {
  const { serialize } = protocol;
  /** By SQL text, least recently run first. */
  const prepared = new Map<string, Prepared>();
  /** Statements forgotten here and not yet closed in the database: closed with the next prepare. */
  let toClose: string[] = [];
  let nextName = 0;
  /**
   * PGlite's parsers with a query's own over them, by the query's parsers. PGlite completes its own
   * (array types) while it starts, before any statement runs here, and this module never refreshes them.
   */
  const mergedParsers = new WeakMap<object, PGlite['parsers']>();

  function parsersFor(options: QueryOptions | undefined): PGlite['parsers'] {
    if (!options?.parsers) {
      return client.parsers;
    }
    let merged = mergedParsers.get(options.parsers);
    if (!merged) {
      merged = { ...client.parsers, ...options.parsers };
      mergedParsers.set(options.parsers, merged);
    }
    return merged;
  }

  async function preparedOf(text: string, options: QueryOptions | undefined): Promise<Prepared> {
    const known = prepared.get(text);
    if (known) {
      prepared.delete(text);
      prepared.set(text, known);
      return known;
    }
    while (prepared.size >= MAX_PREPARED_STATEMENTS) {
      const [oldest, statement] = prepared.entries().next().value!;
      prepared.delete(oldest);
      toClose.push(statement.name);
    }
    const name = `ra_${nextName++}`;
    // Closing a statement that does not exist is no error, so a close is never lost or fatal.
    const closing = toClose.map((old) => serialize.close({ type: 'S', name: old }));
    toClose = [];
    const described = await client.execProtocol(
      joined([
        ...closing,
        serialize.parse({ name, text, types: options?.paramTypes }),
        serialize.describe({ type: 'S', name }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const statement = { name, types: parse.parseDescribeStatementResults(described.messages) };
    prepared.set(text, statement);
    return statement;
  }

  /**
   * Whether the database refused a kept statement because a table under it changed the columns it
   * answers: the statement is then forgotten, to be prepared again from its text. It did not run.
   */
  function isStale(text: string, err: unknown): boolean {
    const statement = prepared.get(text);
    if (!statement || !(err instanceof Error) || !err.message.includes(CHANGED_RESULT_TYPE)) {
      return false;
    }
    prepared.delete(text);
    toClose.push(statement.name);
    return true;
  }

  /** One statement, under the caller's locks; `isInTransaction`: no write to the file system after it. */
  async function run<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    isInTransaction: boolean,
  ): Promise<Results<T>> {
    return client._runExclusiveQuery(() => runPrepared<T>(text, params, options, isInTransaction, true));
  }

  async function runPrepared<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    isInTransaction: boolean,
    mayRetry: boolean,
  ): Promise<Results<T>> {
    const { name, types } = await preparedOf(text, options);
    const values = params.map((value, index) => {
      if (value === null || value === undefined) {
        return null;
      }
      const type = types[index]!;
      const serializer = options?.serializers?.[type] ?? client.serializers[type];
      // As PGlite does: a type without a serializer takes the value's own text.
      return serializer ? serializer(value) : (value as { toString(): string }).toString();
    });
    let messages;
    try {
      ({ messages } = await client.execProtocol(
        joined([
          serialize.bind({ statement: name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      ));
    } catch (err) {
      // Outside a transaction nothing ran and nothing is aborted: prepared anew, it runs once more.
      if (isStale(text, err) && !isInTransaction && mayRetry) {
        return runPrepared<T>(text, params, options, isInTransaction, false);
      }
      throw err;
    }
    if (!isInTransaction) {
      await client.syncToFs();
    }
    // PGlite would merge its parsers with the query's on every run; merged once per parsers object.
    return parse.parseResults(messages, parsersFor(options), { rowMode: options?.rowMode })[0] as Results<T>;
  }

  const query: Query = async (text, params = [], options) => {
    if (options?.blob) {
      return client.query(text, params, options);
    }
    await client._checkReady();
    return client._runExclusiveTransaction(() => run(text, params, options, false));
  };

  return new Proxy(client, {
    // Read from the client itself: its methods and getters use its private fields.
    get(target, property) {
      if (property === 'query') {
        return query;
      }
      if (property === 'transaction') {
        return <T>(callback: (tx: Transaction) => Promise<T>) =>
          target.transaction((tx) =>
            callback(
              new Proxy(tx, {
                get(txTarget, txProperty) {
                  if (txProperty !== 'query') {
                    return Reflect.get(txTarget, txProperty) as unknown;
                  }
                  const txQuery: Query = async (text, params = [], options) => {
                    if (txTarget.closed) {
                      throw new Error('Transaction is closed');
                    }
                    if (options?.blob) {
                      return txTarget.query(text, params, options);
                    }
                    return run(text, params, options, true);
                  };
                  return txQuery;
                },
              }),
            ),
          );
      }
      const value = Reflect.get(target, property) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
