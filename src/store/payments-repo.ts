import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { Db } from './database.ts';
import type { Environment } from './merchants-repo.ts';
import { payments } from './schema.ts';

export type PaymentRow = typeof payments.$inferSelect;
export type NewPaymentRow = typeof payments.$inferInsert;

export interface MerchantScope {
  merchantId: number;
  environment: Environment;
}

// Every column a new payment may set; the INSERT is built once per database and reused (the hot path).
const INSERTED_COLUMNS = [
  'token', 'merchantId', 'environment', 'operationType', 'requestVariant', 'status', 'product', 'amountMinor',
  'currency', 'gatewayAmountMinor', 'gatewayCurrency', 'callbackUrl', 'redirectSuccessUrl', 'redirectFailUrl',
  'pendingUrl', 'extraReturnParam', 'orderNumber', 'locale', 'expiresAt', 'recurring', 'recurringToken',
  'walletToken', 'needConfirmation', 'merchantUrl', 'cardMask', 'cardHolder', 'cardExpiryMonth', 'cardExpiryYear',
  'customer', 'recurringData', 'bankAccount',
] as const satisfies readonly (keyof NewPaymentRow)[];

export type PaymentInsert = Required<Pick<NewPaymentRow, (typeof INSERTED_COLUMNS)[number]>>;

// What the create response needs; returning fewer columns keeps the driver's row parsing off the hot path.
const CREATED_COLUMNS = {
  id: payments.id,
  token: payments.token,
  status: payments.status,
  requestVariant: payments.requestVariant,
  amountMinor: payments.amountMinor,
  currency: payments.currency,
  gatewayAmountMinor: payments.gatewayAmountMinor,
  locale: payments.locale,
  needConfirmation: payments.needConfirmation,
};

export type CreatedPaymentRow = Pick<PaymentRow, keyof typeof CREATED_COLUMNS>;

function prepareInsert(db: Db) {
  const placeholders: Record<string, unknown> = Object.fromEntries(INSERTED_COLUMNS.map((column) => [column, sql.placeholder(column)]));
  // drizzle's Date encoder does not accept null through a placeholder; pass ISO text and cast instead.
  placeholders['expiresAt'] = sql`${sql.placeholder('expiresAt')}::timestamptz`;
  return db
    .insert(payments)
    .values(placeholders as unknown as NewPaymentRow)
    .returning(CREATED_COLUMNS)
    .prepare('payrail_insert_payment');
}

const preparedInserts = new WeakMap<Db, ReturnType<typeof prepareInsert>>();

export async function insertPayment(db: Db, row: PaymentInsert): Promise<CreatedPaymentRow> {
  let prepared = preparedInserts.get(db);
  if (!prepared) {
    prepared = prepareInsert(db);
    preparedInserts.set(db, prepared);
  }
  const [inserted] = await prepared.execute({ ...row, expiresAt: row.expiresAt?.toISOString() ?? null });
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

export interface PaymentListFilter {
  createdFrom: Date | null; // inclusive
  createdBefore: Date | null; // exclusive
  operationType: PaymentRow['operationType'] | null;
  orderNumber: string | null;
  limit: number;
  offset: number;
}

export async function listPayments(
  db: Db,
  scope: MerchantScope,
  filter: PaymentListFilter,
): Promise<{ rows: PaymentRow[]; total: number }> {
  const conditions: SQL[] = [eq(payments.merchantId, scope.merchantId), eq(payments.environment, scope.environment)];
  if (filter.createdFrom) conditions.push(gte(payments.createdAt, filter.createdFrom));
  if (filter.createdBefore) conditions.push(lt(payments.createdAt, filter.createdBefore));
  if (filter.operationType) conditions.push(eq(payments.operationType, filter.operationType));
  if (filter.orderNumber !== null) conditions.push(eq(payments.orderNumber, filter.orderNumber));
  const where = and(...conditions);
  const rows = await db
    .select()
    .from(payments)
    .where(where)
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(filter.limit)
    .offset(filter.offset);
  const [totalRow] = await db.select({ total: count() }).from(payments).where(where);
  return { rows, total: Number(totalRow?.total ?? 0) };
}
