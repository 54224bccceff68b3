import { parse, type PGlite, protocol, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

/** A prepared statement of one database: its name and the types PostgreSQL gave its parameters. */
interface Prepared {
  name: string;
  types: number[];
}

const MAX_NAMED_STATEMENTS = 500;

/** What PGlite adds to a database error of `query` (its makePGliteError), so errors read the same on either path. */
const withQuery = (error: unknown, query: string, params: unknown[], options: QueryOptions | undefined): unknown => {
  if (error && typeof error === 'object' && 'code' in error) Object.assign(error, { query, params, queryOptions: options });
  return error;
};

/**
 * The PGlite client drizzle is given: it prepares each statement text once per database, as
 * db/client.ts's PreparingClient does on PostgreSQL. PGlite's own `query` sends every statement
 * unnamed — parse, describe, bind, describe, execute and sync, six calls into PostgreSQL — so each
 * call parses and plans its text anew; in the embedded database that was most of a short request's
 * CPU (docs/performance.md). Here the first call of a text parses it under a name and learns its
 * parameter types; every later call binds, describes, executes and syncs in one call. It takes the
 * locks PGlite's own `query` takes (a statement outside a transaction waits for a running one), and
 * serialises values and reads rows with PGlite's own serialisers and parsers. Texts beyond
 * MAX_NAMED_STATEMENTS, and queries with options this path does not know, go through PGlite's `query`.
 */
export class PreparingPglite {
  readonly #prepared = new Map<string, Prepared>();

  constructor(readonly client: PGlite) {}

  async query<T>(query: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<T>> {
    if (!this.#preparable(query, options)) return this.client.query<T>(query, params, options);
    await this.client._checkReady();
    return this.client._runExclusiveTransaction(() => this.client._runExclusiveQuery(() => this.#run<T>(query, params, options, false)));
  }

  /** PGlite's transaction, whose `query` prepares as this one does. */
  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.client.transaction((tx) => callback(this.#preparingIn(tx)));
  }

  #preparingIn(tx: Transaction): Transaction {
    const query = async <R>(text: string, params: unknown[] = [], options?: QueryOptions): Promise<Results<R>> => {
      if (tx.closed || !this.#preparable(text, options)) return tx.query<R>(text, params, options); // PGlite's own check of a closed transaction
      return this.client._runExclusiveQuery(() => this.#run<R>(text, params, options, true));
    };
    return {
      query,
      sql: (strings, ...params) => tx.sql(strings, ...params),
      exec: (text, options) => tx.exec(text, options),
      rollback: () => tx.rollback(),
      listen: (channel, callback) => tx.listen(channel, callback),
      get closed() {
        return tx.closed;
      },
    };
  }

  #preparable(query: string, options: QueryOptions | undefined): boolean {
    if (options?.paramTypes || options?.blob) return false;
    return this.#prepared.has(query) || this.#prepared.size < MAX_NAMED_STATEMENTS;
  }

  /** Runs under PGlite's query lock. */
  async #run<T>(query: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean): Promise<Results<T>> {
    try {
      const prepared = this.#prepared.get(query) ?? (await this.#prepare(query));
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const serialize = options?.serializers?.[prepared.types[i]] ?? this.client.serializers[prepared.types[i]];
        return serialize ? serialize(value) : String(value);
      });
      const messages = await this.client.execProtocolStream(
        Buffer.concat([
          protocol.serialize.bind({ statement: prepared.name, values }),
          protocol.serialize.describe({ type: 'P' }),
          protocol.serialize.execute({}),
          protocol.serialize.sync(),
        ]),
        { syncToFs: false },
      );
      if (!inTransaction) await this.client.syncToFs(); // as PGlite's query does (a no-op on disk and in memory)
      // PGlite merges a query's parsers into a copy of all of its own (hundreds, one per array type) on every call;
      // the query's few over the client's, by prototype, read the same.
      const parsers = options?.parsers ? (Object.assign(Object.create(this.client.parsers), options.parsers) as PGlite['parsers']) : this.client.parsers;
      return parse.parseResults(messages, parsers, { ...options, parsers: undefined })[0] as Results<T>;
    } catch (error) {
      throw withQuery(error, query, params, options);
    }
  }

  async #prepare(query: string): Promise<Prepared> {
    const name = `pglite_${this.#prepared.size}`;
    const messages = await this.client.execProtocolStream(
      Buffer.concat([protocol.serialize.parse({ name, text: query }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]),
      { syncToFs: false },
    );
    const prepared = { name, types: parse.parseDescribeStatementResults(messages) };
    this.#prepared.set(query, prepared);
    return prepared;
  }
}
