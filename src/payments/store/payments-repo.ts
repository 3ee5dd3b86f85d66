import { and, count, desc, eq, getTableColumns, gte, inArray, lt, type Placeholder, sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../platform/database.ts';
import type { PaymentSearch } from '../domain/payment-search.ts';
import type { PaymentTransition } from '../domain/payment-status.ts';
import type { StatusCause } from '../domain/status-cause.ts';
import { currentActor } from '../../platform/lib/audit-context.ts';
import { assertPaymentJson } from './json-columns.ts';
import type { Environment } from './merchants-repo.ts';
import { outbox, paymentStatusChanges, payments } from './schema.ts';

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

function prepareInsert(db: DbOrTx) {
  const inserted = db.insert(payments).values(withCommissionTerms(INSERTED_VALUES)).returning(CREATED_COLUMNS);
  const created = db.$with('created', CREATED_COLUMNS).as(inserted.getSQL());
  return db.with(created, recordedBirth(db)).select().from(created).prepare('payrail_insert_payment');
}

// Keyed by database or transaction: a statement prepared on the database would run outside the caller's transaction.
const preparedInserts = new WeakMap<DbOrTx, ReturnType<typeof prepareInsert>>();

// One statement: the payment and its first row of status history.
export async function insertPayment(db: DbOrTx, row: PaymentInsert, cause: StatusCause): Promise<CreatedPaymentRow> {
  assertPaymentJson(row);
  let prepared = preparedInserts.get(db);
  if (!prepared) {
    prepared = prepareInsert(db);
    preparedInserts.set(db, prepared);
  }
  const [inserted] = await prepared.execute({
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

function preparePendingInsert(db: DbOrTx) {
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
  return db.with(created, checked, recordedBirth(db)).select().from(created).prepare('payrail_insert_pending_payment');
}

const preparedPendingInserts = new WeakMap<DbOrTx, ReturnType<typeof preparePendingInsert>>();

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
): Promise<CreatedPaymentRow> {
  assertPaymentJson(row);
  if (transition.from !== 'init' || transition.to !== 'pending') throw new Error(`a new payment is not moved ${transition.from} → ${transition.to}`);
  let prepared = preparedPendingInserts.get(db);
  if (!prepared) {
    prepared = preparePendingInsert(db);
    preparedPendingInserts.set(db, prepared);
  }
  const [inserted] = await prepared.execute({
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
    .where(and(eq(payments.token, token), eq(payments.merchantId, scope.merchantId), eq(payments.environment, scope.environment)));
  return row ?? null;
}

// A place in the list's order (created_at DESC, id DESC); createdAt is ISO 8601 UTC with microseconds, as stored.
interface PaymentListPosition {
  createdAt: string;
  id: number;
}

export interface PaymentListFilter {
  createdFrom: Date | null; // inclusive
  createdBefore: Date | null; // exclusive
  operationType: PaymentRow['operationType'] | null;
  orderNumber: string | null;
  after: PaymentListPosition | null; // keyset: only rows after this place in the order
  limit: number;
  offset: number;
  countMaxRows: number; // the count stops here: above it the total is only known to be larger
  search?: PaymentSearch; // the dashboard's search (domain/payment-search.ts); absent: none
}

export interface PaymentListPage {
  rows: PaymentRow[];
  next: PaymentListPosition | null; // the last row's place when more rows follow, else null
  total: number; // rows matching the filter (the cursor aside), at most countMaxRows + 1
}

// to_char keeps the microseconds a JavaScript Date would drop, so a cursor never skips a row.
const positionText = sql<string>`to_char(${payments.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

function listConditions(scope: MerchantScope, filter: PaymentListFilter, withCursor: boolean): SQL | undefined {
  const conditions: SQL[] = [eq(payments.merchantId, scope.merchantId), eq(payments.environment, scope.environment)];
  if (filter.createdFrom) conditions.push(gte(payments.createdAt, filter.createdFrom));
  if (filter.createdBefore) conditions.push(lt(payments.createdAt, filter.createdBefore));
  if (filter.operationType) conditions.push(eq(payments.operationType, filter.operationType));
  if (filter.orderNumber !== null) conditions.push(eq(payments.orderNumber, filter.orderNumber));
  if (filter.search) conditions.push(...searchConditions(filter.search));
  if (withCursor && filter.after) {
    conditions.push(sql`(${payments.createdAt}, ${payments.id}) < (${filter.after.createdAt}::timestamptz, ${filter.after.id})`);
  }
  return and(...conditions);
}

// Within one merchant and environment (the list's index): a search walks that merchant's rows, bounded by the page.
function searchConditions(search: PaymentSearch): SQL[] {
  const conditions: SQL[] = [];
  if (search.token !== null) conditions.push(eq(payments.token, search.token));
  if (search.status !== null) conditions.push(eq(payments.status, search.status));
  if (search.customerEmail !== null) conditions.push(sql`lower(${payments.customer} ->> 'email') = ${search.customerEmail.toLowerCase()}`);
  if (search.cardLast4 !== null) conditions.push(sql`right(${payments.cardMask}, 4) = ${search.cardLast4}`);
  return conditions;
}

// The two statements of a list page, built but not run (tests EXPLAIN them). The page reads one row more than
// it shows, to know whether another page follows; a deep page skips its offset inside the index (index-only)
// and reads from the table only the rows it shows. The count reads at most countMaxRows + 1 index entries.
export function paymentListQueries(db: Db, scope: MerchantScope, filter: PaymentListFilter) {
  const where = listConditions(scope, filter, true);
  const order = [desc(payments.createdAt), desc(payments.id)];
  const columns = { ...getTableColumns(payments), position: positionText };
  const page =
    filter.offset === 0
      ? db
          .select(columns)
          .from(payments)
          .where(where)
          .orderBy(...order)
          .limit(filter.limit + 1)
      : db
          .select(columns)
          .from(payments)
          .where(
            inArray(
              payments.id,
              db
                .select({ id: payments.id })
                .from(payments)
                .where(where)
                .orderBy(...order)
                .limit(filter.limit + 1)
                .offset(filter.offset),
            ),
          )
          .orderBy(...order);
  const matching = db
    .select({ one: sql`1` })
    .from(payments)
    .where(listConditions(scope, filter, false))
    .limit(filter.countMaxRows + 1)
    .as('matching');
  const total = db.select({ total: count() }).from(matching);
  return { page, total };
}

export async function listPayments(db: Db, scope: MerchantScope, filter: PaymentListFilter): Promise<PaymentListPage> {
  const queries = paymentListQueries(db, scope, filter);
  const [found, [totalRow]] = await Promise.all([queries.page, queries.total]);
  const shown = found.slice(0, filter.limit);
  const last = shown.at(-1);
  const next = found.length > filter.limit && last ? { createdAt: last.position, id: last.id } : null;
  const rows = shown.map(({ position: _position, ...row }) => row);
  return { rows, next, total: Number(totalRow?.total ?? 0) };
}
