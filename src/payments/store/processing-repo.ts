import { and, asc, eq, getTableColumns, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { LedgerPosting } from '../../ledger/index.ts';
import { postingForTransition, type PostedPayment } from '../domain/transition-posting.ts';
import { decideTransition, NO_FINAL_CHANGE, type PaymentStatus, type PaymentTransition } from '../domain/payment-status.ts';
import type { Db, DbOrTx, Tx } from '../../platform/database.ts';
import { AVAILABLE_SHARDS, postLedger } from '../../ledger/index.ts';
import { outcomeNotificationSql } from './notification-events-repo.ts';
import { ledgerBalances, ledgerEntries, ledgerTransactions } from '../../ledger/store/schema.ts';
import { notificationAttempts, outbox, paymentLogs, payments } from './schema.ts';
import { CREATED_COLUMNS, type PaymentRow } from './payments-repo.ts';
import { seriesColumnsOnOutcome, seriesColumnsOnTransition, seriesPlaceholderValues } from './recurring-repo.ts';

export type OutboxRow = typeof outbox.$inferSelect;
export type OutboxTopic = OutboxRow['topic'];
export type NotificationAttemptRow = typeof notificationAttempts.$inferSelect;
export type { DbOrTx, Tx } from '../../platform/database.ts';
// What may change beside the status; the status itself changes only through transitionPayment.
export type PaymentChanges = Omit<Partial<typeof payments.$inferInsert>, 'id' | 'status' | 'finalizedAt' | 'createdAt' | 'updatedAt'>;

export const OUTBOX_LEASE_MS = 60_000; // a claimed row's lease: another worker resumes it after a crash

export async function findPaymentById(db: DbOrTx, paymentId: number): Promise<PaymentRow | null> {
  const [row] = await db.select().from(payments).where(eq(payments.id, paymentId));
  return row ?? null;
}

export async function findPaymentByTokenUnscoped(db: Db, token: string): Promise<PaymentRow | null> {
  if (!/^[0-9a-f]{32}$/.test(token)) return null;
  const [row] = await db.select().from(payments).where(eq(payments.token, token));
  return row ?? null;
}

export async function lockPayment(tx: Tx, paymentId: number): Promise<PaymentRow | null> {
  const [row] = await tx.select().from(payments).where(eq(payments.id, paymentId)).for('update');
  return row ?? null;
}

export async function updatePayment(db: DbOrTx, paymentId: number, changes: PaymentChanges): Promise<PaymentRow> {
  if (Object.hasOwn(changes, 'status') || Object.hasOwn(changes, 'finalizedAt')) throw new Error('a payment status changes only through transitionPayment');
  const [row] = await db
    .update(payments)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(payments.id, paymentId))
    .returning();
  if (!row) throw new Error(`payment ${paymentId} vanished`);
  return row;
}

// The writer of payments.status (principle 3): applies a transition the domain decided, only while the payment
// still has the status it was decided from, and posts to the ledger what the domain says the move is worth, in the
// caller's transaction. Null when a concurrent change won the race. writeOutcome below is the same write with the
// outcome's side effects in one statement; insertPendingPayment creates a payment through init → pending.
export async function transitionPayment(
  tx: Tx,
  paymentId: number,
  transition: PaymentTransition,
  changes: PaymentChanges = {},
  onlyOperation: PaymentRow['operationType'] | null = null, // the move applies to this operation only (null: any)
): Promise<PaymentRow | null> {
  if (Object.hasOwn(changes, 'status') || Object.hasOwn(changes, 'finalizedAt')) throw new Error('the transition sets the status and finalized_at');
  const now = new Date();
  // A pay captures its amount when approved (the new amount when this very write changes it; set already by a
  // two-step confirm that captures less). SET expressions read the row as it was.
  const capture = transition.to === 'approved' ? { capturedMinor: changes.capturedMinor ?? changes.amountMinor ?? sql`${payments.amountMinor}` } : {};
  // A recurring first payment's approval issues the tokens of its series (store/recurring-repo.ts).
  const series = transition.to === 'approved' ? seriesColumnsOnTransition(changes.recurringGatewayToken, now) : {};
  const [row] = await tx
    .update(payments)
    .set({ ...changes, ...capture, ...series, status: transition.to, ...(transition.final ? { finalizedAt: now } : {}), updatedAt: now })
    .where(
      and(eq(payments.id, paymentId), eq(payments.status, transition.from), onlyOperation === null ? undefined : eq(payments.operationType, onlyOperation)),
    )
    .returning();
  if (!row) return null;
  const posting = postingForTransition(postedPaymentOf(row), transition);
  if (posting) await postLedger(tx, row, posting, { paymentId: row.id });
  return row;
}

// What the ledger needs to know of a payment or payout row.
export function postedPaymentOf(
  row: Pick<PaymentRow, 'operationType' | 'amountMinor' | 'capturedMinor' | 'currency' | 'commissionPercentBp' | 'commissionFixedMinor'> &
    Partial<Pick<PaymentRow, 'refundedMinor'>>,
): PostedPayment {
  return {
    operationType: row.operationType,
    captureMinor: row.operationType === 'pay' ? (row.capturedMinor ?? row.amountMinor) : row.amountMinor,
    refundedMinor: row.refundedMinor ?? 0,
    currency: row.currency,
    commission: { percentBp: row.commissionPercentBp, fixedMinor: row.commissionFixedMinor },
  };
}

export const INIT_TO_PENDING = decideTransition('init', 'pending', NO_FINAL_CHANGE);

// init → pending, once, and only within the payment's lifetime: a second submit of the same payment, or one that
// comes after expires_at but before the expiry worker ran, loses cleanly (null) in this one conditional update.
// A payout never goes out through /pay (its processingUrl shows it, nothing more): only a pay moves this way.
// The move is worth nothing to the ledger (domain postingForTransition), so nothing is posted.
export async function markProcessing(tx: Tx, paymentId: number, changes: PaymentChanges, now = new Date()): Promise<PaymentRow | null> {
  if (Object.hasOwn(changes, 'status') || Object.hasOwn(changes, 'finalizedAt')) throw new Error('the transition sets the status');
  const [row] = await tx
    .update(payments)
    .set({ ...changes, status: INIT_TO_PENDING.to, updatedAt: now })
    .where(
      and(
        eq(payments.id, paymentId),
        eq(payments.status, INIT_TO_PENDING.from),
        eq(payments.operationType, 'pay'),
        or(isNull(payments.expiresAt), gt(payments.expiresAt, now)),
      ),
    )
    .returning();
  return row ?? null;
}

export interface PaymentLogInput {
  kind: string;
  entry: unknown;
}

// The columns an outcome statement sets beside the status: what a provider reports, never the amount.
const OUTCOME_DETAIL_COLUMNS = ['gatewayToken', 'gatewayDetails', 'providerResponseData', 'recurringGatewayToken', 'redirectRequest', 'requisites'] as const;
const OUTCOME_JSON_COLUMNS: ReadonlySet<string> = new Set(['gatewayDetails', 'providerResponseData', 'redirectRequest', 'requisites']);

export interface OutcomeWrite {
  expected: PaymentStatus; // the status the outcome was decided from: nothing is written once the payment left it
  transition: PaymentTransition | null; // decided by the domain from `expected`; null: the status stays
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
    redirectRequest: payments.redirectRequest,
    capturedMinor: payments.capturedMinor,
    issuedRecurringToken: payments.issuedRecurringToken,
    issuedWalletToken: payments.issuedWalletToken,
  },
  full: getTableColumns(payments),
};
export type OutcomeSelection = keyof typeof OUTCOME_SELECTIONS;
export type OutcomeRow<S extends OutcomeSelection> = { [K in keyof (typeof OUTCOME_SELECTIONS)[S]]: PaymentRow[K & keyof PaymentRow] };
type OutcomeShape = 'stay' | 'move' | 'final';

const preparedOutcomes = new WeakMap<Db, Map<string, ReturnType<typeof prepareOutcome>>>();

// One statement for what applyToLockedPayment does in a transaction: the status moves only while the payment still
// has `expected` (the transition's from), the provider's details are saved, the log rows written, and a final
// status closes the open status checks and queues the notification. Prepared once per database and shape.
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
  const statement = shape === 'final' ? db.with(moved, logged, closed, queued, posted, entered, balanced) : db.with(moved, logged);
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
  const shape: OutcomeShape = transition === null ? 'stay' : transition.final ? 'final' : 'move';
  const statement = preparedOutcomeOf(db, shape, selection);
  const details = write.details as Record<string, unknown>;
  const values: Record<string, unknown> = {
    id: paymentId,
    from: write.expected,
    to: transition?.to ?? null,
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

export async function insertPaymentLogs(db: DbOrTx, paymentId: number, entries: readonly { kind: string; entry: unknown }[]): Promise<void> {
  if (entries.length === 0) return;
  await db.insert(paymentLogs).values(entries.map((item) => ({ paymentId, kind: item.kind, entry: item.entry })));
}

export async function listPaymentLogs(db: Db, paymentId: number) {
  return db.select().from(paymentLogs).where(eq(paymentLogs.paymentId, paymentId)).orderBy(asc(paymentLogs.id)).limit(500);
}

// Work about a payment, or about one of its refunds or disputes (a notification of type refund or dispute).
export interface OutboxWork {
  topic: OutboxTopic;
  paymentId: number;
  refundId?: number | null;
  disputeId?: number | null;
  dueAt: Date;
  eventId?: string | null;
}

export async function enqueue(db: DbOrTx, row: OutboxWork): Promise<void> {
  await db.insert(outbox).values({
    topic: row.topic,
    paymentId: row.paymentId,
    refundId: row.refundId ?? null,
    disputeId: row.disputeId ?? null,
    dueAt: row.dueAt,
    eventId: row.eventId ?? null,
  });
}

export async function finishOpenWork(db: DbOrTx, paymentId: number, topic: OutboxTopic): Promise<void> {
  await db
    .update(outbox)
    .set({ doneAt: new Date() })
    .where(and(eq(outbox.paymentId, paymentId), eq(outbox.topic, topic), isNull(outbox.doneAt)));
}

// Claims due rows for this worker with FOR UPDATE SKIP LOCKED; a lease lets another worker resume after a crash.
export async function claimDue(db: Db, topic: OutboxTopic, batchSizeMax: number): Promise<OutboxRow[]> {
  const now = new Date();
  const leaseUntil = new Date(now.getTime() + OUTBOX_LEASE_MS);
  const due = db
    .select({ id: outbox.id })
    .from(outbox)
    .where(and(eq(outbox.topic, topic), isNull(outbox.doneAt), lte(outbox.dueAt, now), or(isNull(outbox.lockedUntil), lte(outbox.lockedUntil, now))))
    .orderBy(asc(outbox.dueAt))
    .limit(batchSizeMax)
    .for('update', { skipLocked: true });
  return db
    .update(outbox)
    .set({ lockedUntil: leaseUntil, attempts: sql`${outbox.attempts} + 1` })
    .where(inArray(outbox.id, due))
    .returning();
}

export async function completeWork(db: DbOrTx, outboxId: number, lastError: string | null = null): Promise<void> {
  await db.update(outbox).set({ doneAt: new Date(), lockedUntil: null, lastError }).where(eq(outbox.id, outboxId));
}

export async function rescheduleWork(db: DbOrTx, outboxId: number, dueAt: Date, lastError: string | null): Promise<void> {
  await db.update(outbox).set({ dueAt, lockedUntil: null, lastError }).where(eq(outbox.id, outboxId));
}

export async function listNotificationAttempts(db: Db, paymentId: number): Promise<NotificationAttemptRow[]> {
  return db.select().from(notificationAttempts).where(eq(notificationAttempts.paymentId, paymentId)).orderBy(asc(notificationAttempts.id)).limit(500);
}

// `init` payments, pending pays and open payouts whose lifetime ended (payments_expiry_idx), the longest overdue
// first; each is then expired under its row lock, once (after a last status check where the adapter may have heard
// of it: flows/lifetime-end.ts).
export async function findExpiredPaymentIds(db: Db, batchSizeMax: number): Promise<number[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        inArray(payments.status, ['init', 'pending', 'processing']),
        lte(payments.expiresAt, new Date()),
        sql`(${payments.status} = 'init' or ${payments.operationType} = 'payout' or (${payments.status} = 'pending' and ${payments.operationType} = 'pay'))`,
      ),
    )
    .orderBy(asc(payments.expiresAt))
    .limit(batchSizeMax);
  return rows.map((row) => row.id);
}

// Two-step authorizations whose hold ended (payments_authorized_until_idx), the longest overdue first; each is then
// voided under its row lock, once.
export async function findDueAuthorizationIds(db: Db, batchSizeMax: number): Promise<number[]> {
  const rows = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.status, 'authorized'), lte(payments.authorizedUntil, new Date())))
    .orderBy(asc(payments.authorizedUntil))
    .limit(batchSizeMax);
  return rows.map((row) => row.id);
}
