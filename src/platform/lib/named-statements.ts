import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type pg from 'pg';

// Statements of the money paths (a refund, a payout, a status move, their postings, the sandbox acquirer's refund)
// run as named prepared statements: PostgreSQL parses and plans an unnamed statement on every run, and for these long
// CTEs that was about 40 % of a refund's PostgreSQL CPU (npm run bench, 2026-11-29). A flow marks a statement with
// its purpose; the driver (PostgreSQL's pool clients, nameMarkedStatements) names it by that purpose and a hash of
// its text, so every shape a builder makes (a posting's accounts, the columns a move sets) gets a name of its own and
// a name always means one text, while the values stay parameters. PostgreSQL keeps each name once per connection, so
// the names are bounded by the shapes, a few dozen. Only statements whose plan does not depend on their values (a
// row by its key, an insert, an update of known rows) are marked: a generic plan chosen for one value can be wrong
// for another. PGlite runs them unnamed.

const MARKER = 'payrail_named:';
const NAMES_CACHED_MAX = 512;
const namesByText = new Map<string, string>();

// Keyed by the text alone: a text marked with two purposes keeps the first one's name, which still means that text.
function statementName(purpose: string, text: string): string {
  let name = namesByText.get(text);
  if (name === undefined) {
    name = `payrail_${purpose}_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    if (namesByText.size >= NAMES_CACHED_MAX) namesByText.clear();
    namesByText.set(text, name);
  }
  return name;
}

// PostgreSQL: a pool client's marked statements get their names; every other statement passes untouched.
export function nameMarkedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const marked = typeof config === 'object' && config !== null ? (config as { name?: unknown; text?: unknown }) : null;
    if (marked !== null && typeof marked.name === 'string' && marked.name.startsWith(MARKER)) {
      marked.name = statementName(marked.name.slice(MARKER.length), String(marked.text));
    }
    return query(config, ...rest);
  }) as pg.PoolClient['query'];
}

interface PreparableQuery<T> {
  prepare(name: string): { execute(): Promise<T> };
}

// A drizzle query (select, insert, update, with … select) run as a named prepared statement on PostgreSQL.
export function executeNamed<T>(purpose: string, query: PreparableQuery<T>): Promise<T> {
  return query.prepare(`${MARKER}${purpose}`).execute();
}

interface RawSession {
  dialect: { sqlToQuery(sql: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string,
      isResponseInArrayMode: false,
    ): {
      execute(): Promise<unknown>;
    };
  };
}

// Raw SQL run as drizzle's execute runs it (the driver's result), as a named prepared statement on PostgreSQL. `db`:
// a drizzle database or transaction (typed loosely: database.ts, which installs the naming, imports this file).
export async function executeRawNamed<Row>(db: object, purpose: string, statement: SQL): Promise<{ rows: Row[] }> {
  const raw = db as unknown as RawSession; // drizzle's own execute does exactly this, without the name
  const prepared = raw.session.prepareQuery(raw.dialect.sqlToQuery(statement), undefined, `${MARKER}${purpose}`, false);
  return (await prepared.execute()) as { rows: Row[] };
}
