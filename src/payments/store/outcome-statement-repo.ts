import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { AVAILABLE_SHARDS, type LedgerPosting } from '../../ledger/index.ts';
import { ledgerBalances, ledgerEntries, ledgerTransactions } from '../../ledger/store/schema.ts';
import type { PaymentStatus, PaymentTransition } from '../domain/payment-status.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { currentActor } from '../../platform/lib/audit-context.ts';
import type { Db } from '../../platform/database.ts';
import { assertPaymentJson } from './json-columns.ts';
import { nextEventSequenceSql, outcomeNotificationSql } from './notification-events-repo.ts';
import type { PaymentLogInput } from './payment-logs-repo.ts';
import { CREATED_COLUMNS, type PaymentRow } from './payments-repo.ts';
import type { PaymentChanges } from './payment-changes.ts';
import { seriesColumnsOnOutcome, seriesPlaceholderValues } from './recurring-repo.ts';
import { outbox, paymentLogs, paymentStatusChanges, payments } from './schema.ts';

// The one-statement form of a status change (store/status-writer.ts is the locked form): a /pay answer for a
// payment its own request moved to pending, applied only while it is still pending, in a single statement.

// The columns an outcome statement sets beside the status: what a provider reports, never the amount.
const OUTCOME_DETAIL_COLUMNS = ['gatewayToken', 'gatewayDetails', 'providerResponseData', 'recurringGatewayToken', 'redirectRequest', 'requisites'] as const;
const OUTCOME_JSON_COLUMNS: ReadonlySet<string> = new Set(['gatewayDetails', 'providerResponseData', 'redirectRequest', 'requisites']);

export interface OutcomeWrite {
  expected: PaymentStatus; // the status the outcome was decided from: nothing is written once the payment left it
  transition: PaymentTransition | null; // decided by the domain from `expected`; null: the status stays
  cause: StatusCause; // recorded with the move in the payment's status history (unused when the status stays)
  declineReason: string | null; // stored with a transition (null clears it); ignored without one
  details: PaymentChanges; // OUTCOME_DETAIL_COLUMNS only; a column left out keeps its value
  logs: readonly PaymentLogInput[];
  notificationEventId: string | null; // required by a final transition: its merchant notification
  posting: LedgerPosting | null; // what the transition is worth (domain postingForTransition); null: nothing moves
}

// What the statement hands back: the create response's columns (Host-to-Host), or the whole row (checkout).
const OUTCOME_SELECTIONS = {
  created: {
    ...CREATED_COLUMNS,
    gatewayAlias: payments.gatewayAlias,
    gatewayId: payments.gatewayId,
    redirectRequest: payments.redirectRequest,
    capturedMinor: payments.capturedMinor,
    issuedRecurringToken: payments.issuedRecurringToken,
    issuedWalletToken: payments.issuedWalletToken,
    lastEventSequence: payments.lastEventSequence,
  },
  full: getTableColumns(payments),
};
export type OutcomeSelection = keyof typeof OUTCOME_SELECTIONS;
export type OutcomeRow<S extends OutcomeSelection> = { [K in keyof (typeof OUTCOME_SELECTIONS)[S]]: PaymentRow[K & keyof PaymentRow] };
type OutcomeShape = 'stay' | 'move' | 'final';

const preparedOutcomes = new WeakMap<Db, Map<string, ReturnType<typeof prepareOutcome>>>();

// One statement for what the locked path (status-writer.ts) does in a transaction: the status moves only while the
// payment still has `expected` (the transition's from), the provider's details are saved, the log rows written, a
// move recorded with its cause, and a final status closes the open status checks and queues the notification.
// Prepared once per database and shape.
function prepareOutcome(db: Db, shape: OutcomeShape, selectionName: OutcomeSelection) {
  return outcomeQuery(db, shape, selectionName).prepare(`payrail_outcome_${shape}_${selectionName}`);
}

// The final outcome statement's text, with its $n parameters: tests read the plan PostgreSQL makes of it.
export function finalOutcomeSql(db: Db): string {
  return outcomeQuery(db, 'final', 'full').toSQL().sql;
}

function outcomeQuery(db: Db, shape: OutcomeShape, selectionName: OutcomeSelection) {
  const selection = OUTCOME_SELECTIONS[selectionName];
  const value = (name: string) => sql.placeholder(name);
  const now = sql`${value('now')}::timestamptz`;
  const set: Record<string, unknown> = {};
  for (const column of OUTCOME_DETAIL_COLUMNS) {
    const cast = OUTCOME_JSON_COLUMNS.has(column) ? sql.raw('::jsonb') : sql.raw('::text');
    set[column] = sql`coalesce(${value(column)}${cast}, ${payments[column]})`;
  }
  // The /pay answer ends the payment's pay exchange (domain/adapter-exchange.ts): its marker goes with it.
  const payExchange = sql`${payments.exchangeKind} = 'pay'`;
  set['exchangeKind'] = sql`case when ${payExchange} then null else ${payments.exchangeKind} end`;
  set['exchangeUntil'] = sql`case when ${payExchange} then null else ${payments.exchangeUntil} end`;
  if (shape === 'stay') {
    set['updatedAt'] = sql`case when ${value('touched')}::boolean then ${now} else ${payments.updatedAt} end`;
  } else {
    Object.assign(set, { status: sql`${value('to')}::text`, declineReason: sql`${value('declineReason')}::text`, updatedAt: now });
    if (shape === 'final') {
      set['finalizedAt'] = now;
      set['lastEventSequence'] = nextEventSequenceSql; // its notification's number (outcomeNotificationSql)
      set['capturedMinor'] = sql`case when ${value('to')}::text = 'approved' then ${payments.amountMinor} else ${payments.capturedMinor} end`;
      Object.assign(set, seriesColumnsOnOutcome(value, now));
    }
  }
  const update = db
    .update(payments)
    .set(set as never)
    .where(and(eq(payments.id, value('id')), sql`${payments.status} = ${value('from')}::text`))
    .returning(selection);
  const moved = db.$with('moved', selection).as(update.getSQL());
  const logged = db.$with('logged', {}).as(sql`insert into ${paymentLogs} (payment_id, kind, entry)
    select moved.id, entries.value ->> 'kind', entries.value -> 'entry'
    from moved cross join jsonb_array_elements(${value('logs')}::jsonb) with ordinality as entries(value, position)
    order by entries.position`);
  const recorded = db.$with('recorded', {}).as(sql`insert into ${paymentStatusChanges} (payment_id, from_status, to_status, cause, actor, created_at)
    select moved.id, ${value('from')}::text, ${value('to')}::text, ${value('cause')}::text, ${value('actor')}::text, ${now} from moved`);
  const closed = db.$with('closed', {}).as(sql`update ${outbox} set done_at = ${now} from moved
    where outbox.payment_id = moved.id and outbox.payment_id = ${value('id')} and outbox.topic = 'status_check' and outbox.done_at is null`);
  const notification = { occurredAt: sql`${value('now')}::text`, eventId: sql`${value('eventId')}::text`, declineReason: sql`${value('declineReason')}::text` };
  const queued = db.$with('queued', {}).as(outcomeNotificationSql({ now, ...notification }));
  // The posting: its transaction, its entries and the balances they move (nothing when `kind` is null).
  const entries = sql`jsonb_to_recordset(${value('entries')}::jsonb) as entry(account text, amount_minor bigint)`;
  const posted = db.$with('posted', {}).as(sql`insert into ${ledgerTransactions} (merchant_id, environment, currency, kind, payment_id)
    select moved.merchant_id, moved.environment, ${value('currency')}::text, ${value('kind')}::text, moved.id from moved
    where ${value('kind')}::text is not null returning id`);
  const entered = db.$with('entered', {}).as(sql`insert into ${ledgerEntries} (transaction_id, account, amount_minor)
    select posted.id, entry.account, entry.amount_minor from posted cross join ${entries}`);
  // A capture credits one shard of available (the payment's: availableShardOf), and nothing else with a balance row.
  const balanced = db.$with('balanced', {}).as(sql`insert into ${ledgerBalances} (merchant_id, environment, currency, account, shard, balance_minor)
    select moved.merchant_id, moved.environment, ${value('currency')}::text, entry.account, moved.id % ${sql.raw(String(AVAILABLE_SHARDS))}, entry.amount_minor
    from moved cross join ${entries} where ${value('kind')}::text is not null and entry.account = 'available'
    on conflict (merchant_id, environment, currency, account, shard)
    do update set balance_minor = ${ledgerBalances.balanceMinor} + excluded.balance_minor, updated_at = excluded.updated_at`);
  const statement =
    shape === 'final'
      ? db.with(moved, logged, recorded, closed, queued, posted, entered, balanced)
      : shape === 'move'
        ? db.with(moved, logged, recorded)
        : db.with(moved, logged);
  return statement.select().from(moved);
}

function preparedOutcomeOf(db: Db, shape: OutcomeShape, selection: OutcomeSelection) {
  let statements = preparedOutcomes.get(db);
  if (!statements) {
    statements = new Map();
    preparedOutcomes.set(db, statements);
  }
  const key = `${shape}_${selection}`;
  let statement = statements.get(key);
  if (!statement) {
    statement = prepareOutcome(db, shape, selection);
    statements.set(key, statement);
  }
  return statement;
}

// Null when the payment no longer has `expected` (a callback or a status check got there first): nothing was
// written, and the caller decides again under the row lock (flows/apply-gateway-outcome.ts).
export async function writeOutcome<S extends OutcomeSelection>(db: Db, paymentId: number, write: OutcomeWrite, selection: S): Promise<OutcomeRow<S> | null> {
  const { transition } = write;
  if (transition !== null && transition.from !== write.expected) throw new Error(`a transition from ${transition.from} applied to a ${write.expected} payment`);
  if (transition?.final && write.notificationEventId === null) throw new Error('a final transition queues a notification: give its event id');
  if (write.posting !== null && !transition?.final) throw new Error('an outcome statement posts to the ledger only with a final transition');
  if (transition?.to === 'authorized') throw new Error('an authorization sets its hold and notifies the merchant: the locked path writes it');
  // Its balance is added by INSERT … ON CONFLICT to available alone: only a capture (a credit to available, the
  // rest to accounts without balance rows) may be posted this way.
  if (write.posting !== null && write.posting.kind !== 'payment_captured')
    throw new Error(`an outcome statement posts captures only, not ${write.posting.kind}`);
  const unknown = Object.keys(write.details).filter((key) => !(OUTCOME_DETAIL_COLUMNS as readonly string[]).includes(key));
  if (unknown.length > 0) throw new Error(`an outcome statement does not set ${unknown.join(', ')}`);
  assertPaymentJson(write.details);
  const shape: OutcomeShape = transition === null ? 'stay' : transition.final ? 'final' : 'move';
  const statement = preparedOutcomeOf(db, shape, selection);
  const details = write.details as Record<string, unknown>;
  const values: Record<string, unknown> = {
    id: paymentId,
    from: write.expected,
    to: transition?.to ?? null,
    cause: write.cause,
    actor: currentActor(),
    now: new Date().toISOString(),
    declineReason: write.declineReason,
    touched: Object.keys(details).length > 0,
    logs: JSON.stringify(write.logs.map((log) => ({ kind: log.kind, entry: log.entry }))),
    eventId: write.notificationEventId,
    kind: write.posting?.kind ?? null,
    currency: write.posting?.currency ?? null,
    entries: JSON.stringify((write.posting?.entries ?? []).map((entry) => ({ account: entry.account, amount_minor: entry.amountMinor }))),
    ...seriesPlaceholderValues(transition?.to === 'approved'),
  };
  for (const column of OUTCOME_DETAIL_COLUMNS) {
    const detail = details[column];
    values[column] = detail === undefined || detail === null ? null : OUTCOME_JSON_COLUMNS.has(column) ? JSON.stringify(detail) : detail;
  }
  const [row] = await statement.execute(values);
  return (row as OutcomeRow<S> | undefined) ?? null;
}
