import type { PGlite, Transaction } from '@electric-sql/pglite';
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type pg from 'pg';
import { type AuditContext, currentAuditContext } from './lib/audit-context.ts';

// How the actor of a request or worker pass reaches the audit triggers (migration 0015): as transaction-local
// settings. On PostgreSQL a transaction begun where an actor is known gets them with its BEGIN, in the same round
// trip (one simple query, the values escaped by the driver as literals), so handing them over costs no round trip of
// its own (PGlite, in process, sets them before the first statement that needs them). A statement outside a
// transaction that writes an audited table runs in a transaction of its own that gets them the same way; other
// statements outside a transaction pay nothing, and so does one that sets the settings itself
// (statementAuditSettingsSql). A payment's status move carries its actor in its own row
// (payment_status_changes.actor); migration 0019's trigger adds a person's (an operator's, a member's) action,
// request id and address to it, never a merchant key's or a worker's.
// The drivers are wrapped here, below drizzle, so no flow can write an audited row without its actor.

export const AUDITED_TABLES = [
  'merchants',
  'merchant_keys',
  'gateways',
  'commissions',
  'refunds',
  'disputes',
  'payment_conflicts',
  'users',
  'bank_accounts',
  'app_tokens',
  'dashboard_members',
  'operators',
];
// Of those, the tables whose trigger records an insert and a change of status only: an UPDATE that sets no status
// (a refund's exchange lease, say) writes no audit event, so it needs no actor (and no transaction of its own).
export const STATUS_AUDITED_TABLES = ['refunds', 'bank_accounts'];
const tableName = (tables: readonly string[]) => String.raw`(?:"?public"?\.)?"?(?:${tables.join('|')})"?(?=[\s(]|$)`;
const WHOLLY_AUDITED = AUDITED_TABLES.filter((table) => !STATUS_AUDITED_TABLES.includes(table));
const AUDITED_WRITE = new RegExp(String.raw`\b(?:insert\s+into|update|delete\s+from)\s+${tableName(WHOLLY_AUDITED)}`, 'i');
const STATUS_AUDITED_INSERT_OR_DELETE = new RegExp(String.raw`\b(?:insert\s+into|delete\s+from)\s+${tableName(STATUS_AUDITED_TABLES)}`, 'i');
const STATUS_AUDITED_UPDATE = new RegExp(String.raw`\bupdate\s+${tableName(STATUS_AUDITED_TABLES)}\s+set\b`, 'gi');
const SETS_STATUS = /(?:^|,)\s*"?status"?\s*=/i;
const STATUS_MOVE_WRITE = /\binsert\s+into\s+(?:"?public"?\.)?"?payment_status_changes"?(?=[\s(]|$)/i;
// The settings, in the order of settingValues: as a statement with parameters, or with the values written in.
const SETTING_NAMES = ['payrail.actor', 'payrail.action', 'payrail.request_id', 'payrail.ip'] as const;
const settingsStatement = (values: readonly string[]) =>
  `select ${SETTING_NAMES.map((name, index) => `set_config('${name}', ${values[index]}, true)`).join(', ')}`;
const SETTINGS = settingsStatement(SETTING_NAMES.map((_name, index) => `$${index + 1}`));

// True when an UPDATE of a status-audited table may set its status: its SET list (up to WHERE) names it, or this
// reading cannot tell (no WHERE, a subquery in the SET list): then the actor is handed over, to be safe.
function updatesAuditedStatus(text: string): boolean {
  for (const match of text.matchAll(STATUS_AUDITED_UPDATE)) {
    const rest = text.slice(match.index + match[0].length);
    const where = /\swhere\s/i.exec(rest);
    if (where === null) return true;
    const setList = rest.slice(0, where.index);
    if (SETS_STATUS.test(setList) || /\(\s*select\b/i.test(setList)) return true;
  }
  return false;
}

// Whether a statement may write an audit event (migration 0015's triggers): exported for its unit test.
export function writesAuditEvent(text: string): boolean {
  return AUDITED_WRITE.test(text) || STATUS_AUDITED_INSERT_OR_DELETE.test(text) || updatesAuditedStatus(text);
}

// A statement may hand the settings over itself, in a CTE of its own (statementAuditSettingsSql): the audit triggers
// are AFTER ROW triggers, fired at the end of the statement, so they see settings any part of it set. Outside a
// transaction such a statement needs neither a transaction nor a round trip for them.
const CARRIES_SETTINGS = /\bset_config\('payrail\.actor',/;

// The CTE body that sets the acting context for the rest of its statement (its transaction: an autocommit statement's
// own), from the placeholders of statementAuditSettingValues. It must be read by the statement's writes (a join), so
// it runs whatever the plan.
export function statementAuditSettingsSql(value: (name: StatementSettingKey) => Placeholder): SQL {
  const calls = SETTING_NAMES.map(
    (name, index) => sql`set_config(${sql.raw(`'${name}'`)}, ${value(STATEMENT_SETTING_KEYS[index] ?? 'auditActor')}::text, true)`,
  );
  return sql`select ${sql.join(calls, sql`, `)}`;
}
const STATEMENT_SETTING_KEYS = ['auditActor', 'auditAction', 'auditRequestId', 'auditIp'] as const;
type StatementSettingKey = (typeof STATEMENT_SETTING_KEYS)[number];

// The values of statementAuditSettingsSql's placeholders: the current context's, or none ('' reads as unset).
export function statementAuditSettingValues(): Record<StatementSettingKey, string> {
  const context = actorContext();
  const [auditActor = '', auditAction = '', auditRequestId = '', auditIp = ''] = context ? settingValues(context).map((value) => value ?? '') : [];
  return { auditActor, auditAction, auditRequestId, auditIp };
}

// The actor a statement outside a transaction hands over: only when it may write an audit event or a person's move,
// and does not hand it over itself.
function contextFor(text: string): AuditContext | null {
  const context = actorContext();
  if (!context || CARRIES_SETTINGS.test(text)) return null;
  if (writesAuditEvent(text)) return context;
  const byPerson = !context.actor.startsWith('key:') && !context.actor.startsWith('system:');
  return byPerson && STATUS_MOVE_WRITE.test(text) ? context : null;
}

function actorContext(): (AuditContext & { actor: string }) | null {
  const context = currentAuditContext();
  return context?.actor ? (context as AuditContext & { actor: string }) : null;
}

const settingValues = (context: AuditContext) => [context.actor, context.action ?? '', context.requestId ?? '', context.ipAddress ?? ''];

// PGlite: client.query is drizzle's statement outside a transaction, client.transaction its transactions. In process,
// a statement costs no round trip, so a transaction gets the settings right before its first statement that needs
// them (not at its start: a SET TRANSACTION must come first).
export function handAuditContextToPglite(client: PGlite): void {
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  const handingOver = (tx: Transaction): Transaction => {
    let handed = false;
    const txQuery = tx.query.bind(tx);
    tx.query = (async (text: string, params?: unknown[], options?: object) => {
      const context = handed ? null : contextFor(text);
      if (context) {
        handed = true;
        await txQuery(SETTINGS, settingValues(context));
      }
      return txQuery(text, params, options);
    }) as Transaction['query'];
    return tx;
  };
  client.query = (async (text: string, params?: unknown[], options?: object) => {
    const context = contextFor(text);
    if (!context) return query(text, params, options);
    return transaction(async (tx) => {
      await tx.query(SETTINGS, settingValues(context));
      return tx.query(text, params, options);
    });
  }) as PGlite['query'];
  client.transaction = ((callback: (tx: Transaction) => Promise<unknown>) => transaction((tx) => callback(handingOver(tx)))) as PGlite['transaction'];
}

// PostgreSQL: every client of the pool (pool.query runs on one too), which sees its transaction's begin and end.
export function handAuditContextToPool(pool: pg.Pool): void {
  pool.on('connect', (client) => handAuditContextToClient(client));
}

type QueryCallback = (error: Error | null, result?: unknown) => void;

function handAuditContextToClient(client: pg.PoolClient): void {
  const original = client.query;
  const query = client.query.bind(client) as (config: unknown, values?: unknown) => Promise<unknown>;
  let inTransaction = false;
  const settingsSql = (context: AuditContext) => settingsStatement(settingValues(context).map((value) => client.escapeLiteral(value ?? '')));
  const run = async (text: string, config: unknown, values: unknown): Promise<unknown> => {
    if (/^\s*begin\b/i.test(text)) {
      inTransaction = true;
      const context = actorContext();
      return context ? query(`${text}; ${settingsSql(context)}`) : query(config, values);
    }
    if (/^\s*(commit|rollback)\b/i.test(text)) inTransaction = false;
    const context = inTransaction ? null : contextFor(text);
    if (!context) return query(config, values);
    await query(`begin; ${settingsSql(context)}`);
    try {
      const result = await query(config, values);
      await query('commit');
      return result;
    } catch (error) {
      await query('rollback').catch(() => {});
      throw error;
    }
  };
  const wrapped = (config: unknown, values?: unknown, callback?: unknown): unknown => {
    const [args, done] = typeof values === 'function' ? [undefined, values as QueryCallback] : [values, callback as QueryCallback | undefined];
    // a submittable (a cursor, a stream) is passed through untouched
    if (typeof config === 'object' && config !== null && typeof (config as { submit?: unknown }).submit === 'function') {
      return (original as unknown as (...all: unknown[]) => unknown).call(client, config, values, callback);
    }
    const text = typeof config === 'string' ? config : String((config as { text?: unknown } | null)?.text ?? '');
    const result = run(text, config, args);
    if (done === undefined) return result;
    result.then(
      (value) => done(null, value),
      (error: Error) => done(error),
    );
    return undefined;
  };
  client.query = wrapped as pg.PoolClient['query'];
}
