import { createHash } from 'node:crypto';
import { is, Param, Placeholder, SQL, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { answerCommittedAhead, runThenCommit } from './commit-pipelined.ts';

// Statements of the money paths (a refund, a payout, a status move, their postings, the sandbox acquirer's refund, a
// keyed request's key) run as named prepared statements: PostgreSQL parses and plans an unnamed statement on every
// run, and for these long CTEs that was about 40 % of a refund's PostgreSQL CPU (npm run bench, 2026-11-29). A flow
// declares such a statement with namedStatement (below); the driver (PostgreSQL's pool clients,
// nameMarkedStatements) names it by its purpose and a hash of its text, so every shape a builder makes (a posting's
// accounts, the columns a move sets) gets a name of its own and a name always means one text, while the values stay
// parameters. PostgreSQL keeps each name once per connection, so the names are bounded by the shapes, a few dozen.
// Only statements whose plan does not depend on their values (a row by its key, an insert, an update of known rows)
// are named: a generic plan chosen for one value can be wrong for another. PGlite names its statements itself
// (pglite-prepared.ts).

const MARKER = 'payrail_named:';
const COMMITTING_MARKER = 'payrail_named_committing:';
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
// A statement run with { commit: true } is sent with its transaction's COMMIT (commit-pipelined.ts).
export function nameMarkedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const marked = typeof config === 'object' && config !== null ? (config as { name?: unknown; text?: unknown }) : null;
    if (marked !== null && typeof marked.name === 'string' && marked.name.startsWith(COMMITTING_MARKER)) {
      marked.name = statementName(marked.name.slice(COMMITTING_MARKER.length), String(marked.text));
      return runThenCommit(client, query, marked as Parameters<typeof runThenCommit>[2], rest[0]);
    }
    if (marked !== null && typeof marked.name === 'string' && marked.name.startsWith(MARKER)) {
      marked.name = statementName(marked.name.slice(MARKER.length), String(marked.text));
    }
    const text = typeof config === 'string' ? config : String(marked?.text ?? '');
    const committed = answerCommittedAhead(client, text);
    return committed === null ? query(config, ...rest) : Promise.resolve(committed);
  }) as pg.PoolClient['query'];
}

// A statement of the money paths as a template: built once per shape with placeholders where its values go, turned
// into its text once, then run with each call's values. Building a long CTE through drizzle and turning it into text
// cost more of a refund's or payout's server CPU than anything else of ours (npm run bench profile, 2026-11-29).
// `build` is given the shape and the placeholders only, never a call's values, so no value can be baked into the
// cached text; everything that changes the text (which CTEs, which columns, which accounts) belongs to the shape,
// which keys the cache (its JSON). Every value the text names must be passed to `run`: a missing one throws.

export type Placeholders = (name: string) => Placeholder;

const placeholderOf: Placeholders = (name) => sql.placeholder(name);

type Built = SQL | { prepare(name: string): PreparedLike };

interface PreparedLike {
  getQuery(): { sql: string; params: unknown[] };
  fields?: unknown;
  _isResponseInArrayMode?: boolean;
  joinsNotNullableMap?: unknown;
  execute(values?: Record<string, unknown>): Promise<unknown>;
}

interface StatementForm {
  query: { sql: string; params: unknown[] };
  fields: unknown;
  arrayMode: boolean;
  joinsNotNullableMap: unknown;
}

interface SessionOf {
  dialect: { sqlToQuery(statement: SQL): { sql: string; params: unknown[] } };
  session: { prepareQuery(query: StatementForm['query'], fields: unknown, name: string, arrayMode: boolean): PreparedLike };
}

const FORMS_PER_TEMPLATE_MAX = 256;

export interface NamedStatement<Shape, Result> {
  // commit: the statement is its transaction's last, and on PostgreSQL its COMMIT goes with it (commit-pipelined.ts);
  // the transaction's own COMMIT then costs nothing. It must fail, not answer, whenever the transaction must not commit.
  run(db: object, shape: Shape, values: Readonly<Record<string, unknown>>, options?: { commit: boolean }): Promise<Result>;
}

// `db`: a drizzle database or transaction (typed loosely: database.ts, which installs the naming, imports this file).
// A drizzle query builder's result is its mapped rows; raw SQL's is the driver's result ({ rows }).
export function namedStatement<Shape, Result>(purpose: string, build: (db: object, shape: Shape, p: Placeholders) => Built): NamedStatement<Shape, Result> {
  const forms = new Map<string, StatementForm>();
  const name = `${MARKER}${purpose}`;
  const committingName = `${COMMITTING_MARKER}${purpose}`;
  return {
    run(db, shape, values, options) {
      if (options?.commit && !is(db, PgTransaction)) throw new Error(`statement ${purpose} sent with its COMMIT outside a transaction`);
      const key = typeof shape === 'string' ? shape : JSON.stringify(shape);
      let form = forms.get(key);
      if (form === undefined) {
        form = formOf(db as SessionOf, build(db, shape, placeholderOf), name);
        if (forms.size >= FORMS_PER_TEMPLATE_MAX) forms.clear();
        forms.set(key, form);
      }
      const prepared = (db as SessionOf).session.prepareQuery(form.query, form.fields, options?.commit ? committingName : name, form.arrayMode);
      prepared.joinsNotNullableMap = form.joinsNotNullableMap;
      return prepared.execute(values) as Promise<Result>;
    },
  };
}

function formOf(db: SessionOf, built: Built, name: string): StatementForm {
  if (is(built, SQL)) return { query: nullSafe(db.dialect.sqlToQuery(built)), fields: undefined, arrayMode: false, joinsNotNullableMap: undefined };
  const prepared = built.prepare(name);
  return {
    query: nullSafe(prepared.getQuery()),
    fields: prepared.fields,
    arrayMode: prepared._isResponseInArrayMode === true,
    joinsNotNullableMap: prepared.joinsNotNullableMap,
  };
}

// A column's encoder of a placeholder's value (a json column's JSON.stringify, a timestamp's toISOString) would turn a
// null into jsonb 'null' or throw: drizzle checks for null only when it encodes a value it was given directly.
function nullSafe(query: { sql: string; params: unknown[] }): { sql: string; params: unknown[] } {
  const params = query.params.map((param) => {
    if (!is(param, Param) || !is(param.value, Placeholder)) return param;
    const { encoder } = param;
    return new Param(param.value, { mapToDriverValue: (value: unknown) => (value === null || value === undefined ? null : encoder.mapToDriverValue(value)) });
  });
  return { sql: query.sql, params };
}
