import { type Placeholder, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/database.ts';
import type { PaymentTransition } from '../domain/payment-status.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { currentActor } from '../../platform/lib/audit-context.ts';
import { assertPaymentJson } from './json-columns.ts';
import type { Environment } from './merchants-repo.ts';
import { outbox, paymentStatusChanges, payments } from './schema.ts';
import { type FoldedKey, keyedResource, keyPlaceholders, preparedOf } from './payment-key-cte.ts';
import { tokenInScope } from './scoped-token.ts';

export type PaymentRow = typeof payments.$inferSelect;
type NewPaymentRow = typeof payments.$inferInsert;

export interface MerchantScope {
  merchantId: number;
  environment: Environment;
}

// Every column a new payment may set, bound to the placeholder of its name: the INSERT is built once per database
// and reused (the hot path).
const INSERTED_VALUES = {
  token: sql.placeholder('token'),
  merchantId: sql.placeholder('merchantId'),
  environment: sql.placeholder('environment'),
  operationType: sql.placeholder('operationType'),
  requestVariant: sql.placeholder('requestVariant'),
  status: sql.placeholder('status'),
  product: sql.placeholder('product'),
  amountMinor: sql.placeholder('amountMinor'),
  currency: sql.placeholder('currency'),
  gatewayAmountMinor: sql.placeholder('gatewayAmountMinor'),
  gatewayCurrency: sql.placeholder('gatewayCurrency'),
  callbackUrl: sql.placeholder('callbackUrl'),
  redirectSuccessUrl: sql.placeholder('redirectSuccessUrl'),
  redirectFailUrl: sql.placeholder('redirectFailUrl'),
  pendingUrl: sql.placeholder('pendingUrl'),
  extraReturnParam: sql.placeholder('extraReturnParam'),
  orderNumber: sql.placeholder('orderNumber'),
  locale: sql.placeholder('locale'),
  // drizzle's Date encoder does not accept null through a placeholder; pass ISO text and cast instead.
  expiresAt: sql`${sql.placeholder('expiresAt')}::timestamptz`,
  recurring: sql.placeholder('recurring'),
  recurringToken: sql.placeholder('recurringToken'),
  walletToken: sql.placeholder('walletToken'),
  needConfirmation: sql.placeholder('needConfirmation'),
  merchantUrl: sql.placeholder('merchantUrl'),
  cardMask: sql.placeholder('cardMask'),
  cardHolder: sql.placeholder('cardHolder'),
  cardExpiryMonth: sql.placeholder('cardExpiryMonth'),
  cardExpiryYear: sql.placeholder('cardExpiryYear'),
  customer: sql.placeholder('customer'),
  recurringData: sql.placeholder('recurringData'),
  bankAccount: sql.placeholder('bankAccount'),
  testClockId: sql.placeholder('testClockId'),
} satisfies Partial<Record<keyof NewPaymentRow, SQL | Placeholder>>;

// testClockId may be left out (the wall clock): only a sandbox create request names a test clock.
export type PaymentInsert = Required<Pick<NewPaymentRow, Exclude<keyof typeof INSERTED_VALUES, 'testClockId'>>> & { testClockId?: number | null };

// What the create response needs; returning fewer columns keeps the driver's row parsing off the hot path.
export const CREATED_COLUMNS = {
  id: payments.id,
  token: payments.token,
  status: payments.status,
  requestVariant: payments.requestVariant,
  amountMinor: payments.amountMinor,
  currency: payments.currency,
  gatewayAmountMinor: payments.gatewayAmountMinor,
  locale: payments.locale,
  needConfirmation: payments.needConfirmation,
  merchantId: payments.merchantId,
  environment: payments.environment,
  operationType: payments.operationType,
  commissionPercentBp: payments.commissionPercentBp,
  commissionFixedMinor: payments.commissionFixedMinor,
};

// The merchant's commission terms for the payment's operation, copied into the row as it is inserted (one
// statement): later changes of the terms never change what an existing payment costs.
function withCommissionTerms<V extends object>(values: V) {
  const termOf = (column: 'percent_bp' | 'fixed_minor') =>
    sql`coalesce((select ${sql.raw(column)} from commissions where merchant_id = ${sql.placeholder('merchantId')}
      and operation = ${sql.placeholder('operationType')}), 0)`;
  return { ...values, commissionPercentBp: termOf('percent_bp'), commissionFixedMinor: termOf('fixed_minor') };
}

export type CreatedPaymentRow = Pick<PaymentRow, keyof typeof CREATED_COLUMNS>;

// A new payment's first row of status history (tables-status-changes.ts), in the statement that inserts it (the CTE
// `created`): the status it is born with, from none, with the cause its creator gives.
function recordedBirth(db: DbOrTx) {
  return db.$with('born', {}).as(sql`insert into ${paymentStatusChanges} (payment_id, from_status, to_status, cause, actor)
    select created.id, null, created.status, ${sql.placeholder('cause')}::text, ${sql.placeholder('actor')}::text from created`);
}

function prepareInsert(db: DbOrTx, keyed: boolean) {
  const inserted = db.insert(payments).values(withCommissionTerms(INSERTED_VALUES)).returning(CREATED_COLUMNS);
  const created = db.$with('created', CREATED_COLUMNS).as(inserted.getSQL());
  const statement = keyed ? db.with(created, recordedBirth(db), keyedResource(db, 'payment')) : db.with(created, recordedBirth(db));
  return statement
    .select()
    .from(created)
    .prepare(keyed ? 'payrail_insert_payment_keyed' : 'payrail_insert_payment');
}

// Keyed by database or transaction: a statement prepared on the database would run outside the caller's transaction.
const preparedInserts = new WeakMap<DbOrTx, { plain?: ReturnType<typeof prepareInsert>; keyed?: ReturnType<typeof prepareInsert> }>();

// One statement: the payment, its first row of status history and, with a deferred claim's key, that key.
export async function insertPayment(db: DbOrTx, row: PaymentInsert, cause: StatusCause, key: FoldedKey | null = null): Promise<CreatedPaymentRow> {
  assertPaymentJson(row);
  const prepared = preparedOf(preparedInserts, db, key !== null, (keyed) => prepareInsert(db, keyed));
  const [inserted] = await prepared.execute({
    ...(key ? keyPlaceholders(key) : {}),
    ...row,
    testClockId: row.testClockId ?? null,
    cause,
    actor: currentActor(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
  });
  if (!inserted) throw new Error('payment insert returned no row');
  return inserted;
}

// The gateway a payment is sent to, set when it leaves `init`.
interface SentTo {
  gatewayId: number | null; // null: the built-in sandbox
  gatewayAlias: string;
}

// A Host-to-Host payment is sent at once: it is born holding the marker of its /pay until then.
export interface SentNow extends SentTo {
  payExchangeUntil: Date;
}

function preparePendingInsert(db: DbOrTx, keyed: boolean) {
  const sentToValues = {
    gatewayId: sql.placeholder('gatewayId'),
    gatewayAlias: sql.placeholder('gatewayAlias'),
    exchangeKind: sql`'pay'`, // born holding its /pay's exchange marker (domain/adapter-exchange.ts)
    exchangeUntil: sql`${sql.placeholder('payExchangeUntil')}::timestamptz`,
  };
  const inserted = db
    .insert(payments)
    .values(withCommissionTerms({ ...INSERTED_VALUES, ...sentToValues }))
    .returning(CREATED_COLUMNS);
  const created = db.$with('created', CREATED_COLUMNS).as(inserted.getSQL());
  const checked = db.$with('checked', {}).as(sql`insert into ${outbox} (topic, payment_id, due_at)
    select 'status_check', created.id, ${sql.placeholder('statusCheckDueAt')}::timestamptz from created`);
  const statement = keyed ? db.with(created, checked, recordedBirth(db), keyedResource(db, 'payment')) : db.with(created, checked, recordedBirth(db));
  return statement
    .select()
    .from(created)
    .prepare(keyed ? 'payrail_insert_pending_payment_keyed' : 'payrail_insert_pending_payment');
}

type PendingInsert = ReturnType<typeof preparePendingInsert>;
const preparedPendingInserts = new WeakMap<DbOrTx, { plain?: PendingInsert; keyed?: PendingInsert }>();

// A Host-to-Host payment is created and moved init → pending (a transition the domain decided, applied as it is
// born) in the statement that queues its first status check and records its history's first row (from none to
// pending: it never was init in the table), holding its /pay's exchange marker: a crash before the adapter call
// leaves a pending payment whose status check (once the marker lapses) asks the adapter, which does not know it and
// declines it, and the merchant is told.
export async function insertPendingPayment(
  db: DbOrTx,
  row: Omit<PaymentInsert, 'status'>,
  transition: PaymentTransition,
  sentTo: SentNow,
  statusCheckDueAt: Date,
  cause: StatusCause,
  key: FoldedKey | null = null,
): Promise<CreatedPaymentRow> {
  assertPaymentJson(row);
  if (transition.from !== 'init' || transition.to !== 'pending') throw new Error(`a new payment is not moved ${transition.from} → ${transition.to}`);
  const prepared = preparedOf(preparedPendingInserts, db, key !== null, (keyed) => preparePendingInsert(db, keyed));
  const [inserted] = await prepared.execute({
    ...(key ? keyPlaceholders(key) : {}),
    ...row,
    gatewayId: sentTo.gatewayId,
    gatewayAlias: sentTo.gatewayAlias,
    payExchangeUntil: sentTo.payExchangeUntil.toISOString(),
    testClockId: row.testClockId ?? null,
    status: transition.to,
    cause,
    actor: currentActor(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    statusCheckDueAt: statusCheckDueAt.toISOString(),
  });
  if (!inserted) throw new Error('payment insert returned no row');
  return inserted;
}

export async function findPaymentByToken(db: Db, scope: MerchantScope, token: string): Promise<PaymentRow | null> {
  const [row] = await db
    .select()
    .from(payments)
    .where(tokenInScope(payments, token, scope));
  return row ?? null;
}
