import { parse, protocol, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';

// PGlite runs every statement unnamed: each call parses it twice (Parse, then Describe for the parameter types),
// analyses, rewrites and plans it again, and for the long CTEs of a payment create or a status move that was most
// of the statement (a create: 1.5–2.4 ms of CPU, of which 0.25 ms planning and 0.5 ms execution; 2026-11-29). A
// data statement run with parameters is now prepared once per PGlite under a name and then only bound and executed,
// in one exchange, as drivers of a real PostgreSQL do (platform/lib/named-statements.ts). PostgreSQL's plan cache
// keeps custom plans until a generic one costs no more, as it does for any prepared statement. Names are bounded:
// the least recently used is closed past NAMED_MAX. A text PostgreSQL will not prepare runs unnamed.
const NAMED_MAX = 256;
const NAMABLE = /^\s*(select|insert|update|delete|with)\b/i;
const FORGETS_NAMES = /\b(discard\s+all|deallocate)\b/i; // the session's prepared statements are gone after it
const UNKNOWN_STATEMENT = '26000'; // invalid_sql_statement_name

interface Named {
  name: string;
  parameterTypes: number[];
}

type Messages = Awaited<ReturnType<PGlite['execProtocolStream']>>;

export function prepareStatementsOnPglite(client: PGlite): void {
  const named = new Map<string, Named>();
  let nextId = 0;
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);

  const exchange = async (messages: Uint8Array[]): Promise<Messages> => {
    const bytes = new Uint8Array(messages.reduce((sum, message) => sum + message.length, 0));
    let offset = 0;
    for (const message of messages) {
      bytes.set(message, offset);
      offset += message.length;
    }
    return client.execProtocolStream(bytes, { syncToFs: false });
  };

  // Prepares the text once, then binds, describes and executes it, under PGlite's own locks: a statement of a
  // transaction takes the query lock (its transaction holds the other), one outside takes the transaction lock first,
  // so that it never runs inside another caller's open transaction.
  const runNamed = (text: string, params: unknown[], options: QueryOptions | undefined, inTransaction: boolean) =>
    inTransaction
      ? client._runExclusiveQuery(() => bindAndExecute(text, params, options, inTransaction))
      : client._runExclusiveTransaction(() => client._runExclusiveQuery(() => bindAndExecute(text, params, options, inTransaction)));

  const bindAndExecute = async (
    text: string,
    params: unknown[],
    options: QueryOptions | undefined,
    inTransaction: boolean,
  ): Promise<Results<unknown> | null> => {
    const statement = named.get(text) ?? (await prepare(text));
    if (statement === null) return null;
    named.delete(text); // least recently used first
    named.set(text, statement);
    const values = params.map((value, index) => {
      if (value === null || value === undefined) return null;
      const serialize = options?.serializers?.[statement.parameterTypes[index]!] ?? client.serializers[statement.parameterTypes[index]!];
      return serialize ? serialize(value) : String(value);
    });
    try {
      const messages = await exchange([
        protocol.serialize.bind({ statement: statement.name, values: values as string[] }),
        protocol.serialize.describe({ type: 'P' }),
        protocol.serialize.execute({}),
        protocol.serialize.sync(),
      ]);
      if (!inTransaction) await client.syncToFs();
      return parse.parseResults(messages, client.parsers, options)[0]!; // at least one result, PGlite's own reading
    } catch (error) {
      // Gone from the session (a DEALLOCATE or DISCARD this wrapper did not see): run unnamed, prepare next time.
      if ((error as { code?: unknown }).code === UNKNOWN_STATEMENT) {
        named.delete(text);
        return null;
      }
      throw Object.assign(error as Error, { query: text, params, queryOptions: options });
    }
  };

  const prepare = async (text: string): Promise<Named | null> => {
    const name = `payrail_pglite_${nextId++}`;
    let messages: Messages;
    try {
      messages = await exchange([
        protocol.serialize.parse({ name, text, types: [] }),
        protocol.serialize.describe({ type: 'S', name }),
        protocol.serialize.sync(),
      ]);
    } catch {
      return null; // run unnamed, which gives the error its own way (in an aborted transaction, every text fails)
    }
    if (named.size >= NAMED_MAX) await closeOldest();
    return { name, parameterTypes: parse.parseDescribeStatementResults(messages) };
  };

  const closeOldest = async (): Promise<void> => {
    for (const [text, statement] of named) {
      named.delete(text);
      await exchange([protocol.serialize.close({ type: 'S', name: statement.name }), protocol.serialize.sync()]);
      return;
    }
  };

  const namedOrPlain =
    (plain: PGlite['query'], inTransaction: boolean) =>
    async <T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> => {
      if (FORGETS_NAMES.test(text)) return plain<T>(text, params, options).finally(() => named.clear());
      const plainOnly = options?.blob !== undefined || options?.paramTypes !== undefined; // PGlite's own handling of those
      if (params === undefined || params.length === 0 || plainOnly || !NAMABLE.test(text)) return plain<T>(text, params, options);
      const result = await runNamed(text, params, options, inTransaction);
      return result === null ? plain<T>(text, params, options) : (result as Results<T>);
    };

  client.query = namedOrPlain(query, false) as PGlite['query'];
  const exec = client.exec.bind(client);
  client.exec = ((text: string, options?: QueryOptions) =>
    FORGETS_NAMES.test(text) ? exec(text, options).finally(() => named.clear()) : exec(text, options)) as PGlite['exec'];
  client.transaction = (<T>(callback: (tx: Transaction) => Promise<T>) =>
    transaction((tx) => {
      // tx.query keeps its check (a closed transaction refuses) for every text.
      const plain = tx.query.bind(tx) as PGlite['query'];
      const namedInTransaction = namedOrPlain(plain, true);
      tx.query = (<T>(text: string, params?: unknown[], options?: QueryOptions) =>
        tx.closed ? plain<T>(text, params, options) : namedInTransaction<T>(text, params, options)) as Transaction['query'];
      return callback(tx);
    })) as PGlite['transaction'];
}
