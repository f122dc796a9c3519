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
 * crossing and parsing: about 1.7 ms for `select 1` on this machine. Here the statement's parameter
 * types are learned once per SQL text, and every later run is one round of all its messages
 * (0.4 ms). Everything else is PGlite's: its locks, its serializers and parsers, its results.
 */

/** SQL texts whose parameter types are kept: the application's statements, several times over. */
const MAX_KNOWN_STATEMENTS = 2_000;

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
  const parameterTypes = new Map<string, number[]>();

  async function typesOf(text: string, options: QueryOptions | undefined): Promise<number[]> {
    const known = parameterTypes.get(text);
    if (known) {
      return known;
    }
    const described = await client.execProtocol(
      joined([
        serialize.parse({ text, types: options?.paramTypes }),
        serialize.describe({ type: 'S' }),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const types = parse.parseDescribeStatementResults(described.messages);
    if (parameterTypes.size >= MAX_KNOWN_STATEMENTS) {
      parameterTypes.delete(parameterTypes.keys().next().value!);
    }
    parameterTypes.set(text, types);
    return types;
  }

  /** One statement, under the caller's locks; `isInTransaction`: no write to the file system after it. */
  async function run<T>(
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    isInTransaction: boolean,
  ) {
    return client._runExclusiveQuery(async () => {
      const types = await typesOf(text, options);
      const values = params.map((value, index) => {
        if (value === null || value === undefined) {
          return null;
        }
        const type = types[index]!;
        const serializer = options?.serializers?.[type] ?? client.serializers[type];
        // As PGlite does: a type without a serializer takes the value's own text.
        return serializer ? serializer(value) : (value as { toString(): string }).toString();
      });
      const { messages } = await client.execProtocol(
        joined([
          serialize.parse({ text, types }),
          serialize.bind({ values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
        { syncToFs: false },
      );
      if (!isInTransaction) {
        await client.syncToFs();
      }
      return parse.parseResults(messages, client.parsers, options)[0] as Results<T>;
    });
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
