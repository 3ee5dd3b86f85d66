import pg from 'pg';

// A transaction's last statement sent with its COMMIT in one write (PostgreSQL's extended protocol: the statement's
// Parse/Bind/Describe/Execute, then COMMIT's Parse/Bind/Execute, then one Sync). The rows the statement locked are
// released as soon as PostgreSQL has run both, instead of after the statement's answer has come back and waited its
// turn on a busy event loop before the COMMIT is sent (a refund's reservation locks a shard of the merchant's
// balance: npm run bench, seventh session, saw reservations queue behind others "idle in transaction").
// Should the statement fail, PostgreSQL skips the COMMIT (up to the Sync) and the transaction is left to its
// rollback as before; so such a statement must fail, not answer, whenever its transaction must not commit.
// The transaction's own COMMIT that follows is then answered here without a round trip (answerCommittedAhead).

const committedAhead = new WeakSet<object>();

interface PipelineConnection {
  execute(config: { portal: string; rows?: number }): void;
  parse(config: { text: string; name: string; types: unknown[] }): void;
  bind(config: { portal: string; statement: string; values: unknown[] }): void;
  sync(): void;
}

// pg.Query's internals this relies on (pg 8, pinned): prepare() ends with _getRows(connection, rows), which sends
// Execute and Sync; each CommandComplete goes to handleCommandComplete.
interface QueryInternals {
  portal: string;
  _getRows(connection: PipelineConnection, rows: number | undefined): void;
  handleCommandComplete(message: { text: string }, connection: PipelineConnection): void;
}

type Send = (submittable: pg.Submittable) => unknown;
interface QueryConfig {
  name?: string;
  text: string;
  rowMode?: string;
  types?: unknown;
}

// Runs a named statement (config.name set) and its transaction's COMMIT in one pipeline on `client`.
export function runThenCommit(client: object, send: Send, config: QueryConfig, values: unknown): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    let committed = false;
    const done = (error: Error | null, result?: pg.QueryResult) => {
      if (error) return reject(error);
      if (!committed) return reject(new Error(`statement ${config.name} ran but its COMMIT did not commit`));
      committedAhead.add(client);
      resolve(result as pg.QueryResult);
    };
    const query = new pg.Query({ ...config, values: values as unknown[] } as pg.QueryConfig, undefined, done as never);
    const internals = query as unknown as QueryInternals;
    internals._getRows = (connection, rows) => {
      if (rows !== undefined) throw new Error('a pipelined COMMIT follows a statement read whole');
      connection.execute({ portal: internals.portal });
      connection.parse({ text: 'commit', name: '', types: [] });
      connection.bind({ portal: '', statement: '', values: [] });
      connection.execute({ portal: '' });
      connection.sync();
    };
    const statementComplete = internals.handleCommandComplete.bind(query);
    let completions = 0;
    internals.handleCommandComplete = (message, connection) => {
      completions += 1;
      if (completions === 1) statementComplete(message, connection);
      else committed = message.text === 'COMMIT';
    };
    send(query as unknown as pg.Submittable);
  });
}

const COMMIT_TEXT = /^\s*commit\s*;?\s*$/i;
const ROLLBACK_TEXT = /^\s*rollback\s*;?\s*$/i;

// The answer to the COMMIT (or ROLLBACK) that ends a transaction whose last statement committed it already, or null
// when this one is to be sent. A rollback after such a statement cannot undo it (nothing may fail after it): it goes
// to PostgreSQL, which warns that no transaction is in progress. Any other statement there would run outside the
// transaction it was written for: it throws instead.
export function answerCommittedAhead(client: object, text: string): pg.QueryResult | null {
  if (!committedAhead.has(client)) return null;
  committedAhead.delete(client);
  if (COMMIT_TEXT.test(text)) return { command: 'COMMIT', rowCount: null, oid: 0, rows: [], fields: [] };
  if (ROLLBACK_TEXT.test(text)) return null;
  throw new Error('a statement after its transaction was committed with its last statement');
}
