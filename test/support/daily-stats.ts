import { sql } from 'drizzle-orm';
import { STAT_APPROVED_STATUSES, type StatMethod } from '../../src/payments/domain/daily-stats.ts';
import { declineClassOf } from '../../src/payments/domain/decline-class.ts';
import { decideTransition, FINAL_STATUSES, type PaymentStatus } from '../../src/payments/domain/payment-status.ts';
import { insertPendingPayment, type PaymentInsert } from '../../src/payments/store/payments-repo.ts';
import { INIT_TO_PENDING } from '../../src/payments/store/processing-repo.ts';
import type { Database } from '../../src/platform/database.ts';
import { transitionPayment } from './bare-transition.ts';
import { queryRows } from './sql.ts';

// Fixtures and an oracle for the daily aggregates (store/tables-daily-stats.ts): pays created pending on a chosen
// day and moved through the real status writer, and the buckets those payments should make, computed here in
// TypeScript from the payments table (domain/decline-class.ts for the classes), apart from the SQL that builds them.

export interface StatPayment {
  merchantId: number;
  environment: 'sandbox' | 'production';
  currency: string;
  amountMinor: number;
  createdAt: string; // ISO instant
  method: StatMethod;
}

let paymentCount = 0;

function pendingRow(payment: StatPayment): Omit<PaymentInsert, 'status'> {
  paymentCount += 1;
  const series = payment.method === 'recurring' || payment.method === 'wallet';
  return {
    token: `stats${String(process.pid)}x${String(paymentCount).padStart(10, '0')}`,
    merchantId: payment.merchantId,
    environment: payment.environment,
    operationType: 'pay',
    requestVariant: payment.method === 'bank_account' ? 'C' : 'A',
    product: 'Stats order',
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    gatewayAmountMinor: payment.amountMinor,
    gatewayCurrency: payment.currency,
    callbackUrl: null,
    redirectSuccessUrl: null,
    redirectFailUrl: null,
    pendingUrl: null,
    extraReturnParam: null,
    orderNumber: null,
    locale: 'en',
    expiresAt: null,
    recurring: false,
    recurringToken: payment.method === 'recurring' ? `rt-${paymentCount}` : null,
    walletToken: payment.method === 'wallet' ? `wt-${paymentCount}` : null,
    needConfirmation: false,
    merchantUrl: null,
    cardMask: payment.method === 'card' || series ? '411111******1111' : null,
    cardHolder: null,
    cardExpiryMonth: null,
    cardExpiryYear: null,
    customer: null,
    recurringData: null,
    bankAccount: payment.method === 'bank_account' ? { bankName: 'Test bank', requisiteType: null, accountNumber: '40817810099910004312' } : null,
  };
}

// A pending pay created at payment.createdAt (the column is set afterwards: no writer sets it, and the trigger does
// not watch it).
export async function createPendingPayment(database: Database, payment: StatPayment): Promise<number> {
  const created = await insertPendingPayment(
    database.db,
    pendingRow(payment),
    INIT_TO_PENDING,
    { gatewayId: null, gatewayAlias: 'acquirer', payExchangeUntil: new Date() },
    new Date(),
    'api',
  );
  await database.db.execute(sql`update payments set created_at = ${payment.createdAt}::timestamptz where id = ${created.id}`);
  return created.id;
}

// A status move through store/status-writer.ts, as the domain allows it (final → final as enable_change_final_status).
export async function movePayment(database: Database, paymentId: number, from: PaymentStatus, to: PaymentStatus, declineReason?: string): Promise<void> {
  const transition = decideTransition(from, to, { allowFinalChange: true });
  const changes = to === 'declined' ? { declineReason: declineReason ?? 'Do not honor' } : {};
  const moved = await database.db.transaction((tx) => transitionPayment(tx, paymentId, transition, changes));
  if (moved === null) throw new Error(`payment ${paymentId} is not ${from}`);
}

interface PaymentFacts {
  merchant_id: string | number;
  environment: string;
  created_at: Date | string;
  currency: string;
  status: PaymentStatus;
  decline_reason: string | null;
  amount_minor: string | number;
  captured_minor: string | number | null;
  recurring_token: string | null;
  wallet_token: string | null;
  bank_account: unknown;
  card_mask: string | null;
}

function methodOf(payment: PaymentFacts): StatMethod {
  if (payment.recurring_token !== null) return 'recurring';
  if (payment.wallet_token !== null) return 'wallet';
  if (payment.bank_account !== null) return 'bank_account';
  return payment.card_mask !== null ? 'card' : 'other';
}

// bucket key (merchant|environment|day|currency|dimension|value) → "count volume"; buckets at zero left out.
export type Buckets = Record<string, string>;

export async function expectedBuckets(database: Database): Promise<Buckets> {
  const rows = await queryRows<PaymentFacts>(
    database,
    sql`select merchant_id, environment, created_at, currency, status, decline_reason, amount_minor, captured_minor, recurring_token,
      wallet_token, bank_account, card_mask from payments where operation_type = 'pay'`,
  );
  const sums = new Map<string, { count: number; volume: number }>();
  for (const payment of rows) {
    if (!FINAL_STATUSES.includes(payment.status)) continue;
    const approved = (STAT_APPROVED_STATUSES as readonly string[]).includes(payment.status);
    const volume = Number(approved ? (payment.captured_minor ?? payment.amount_minor) : payment.amount_minor);
    const day = new Date(payment.created_at).toISOString().slice(0, 10);
    const scope = `${Number(payment.merchant_id)}|${payment.environment}|${day}|${payment.currency}`;
    const values: [string, string][] = [
      ['status', payment.status],
      ['method', methodOf(payment)],
    ];
    if (payment.status === 'declined') values.push(['decline_class', declineClassOf(payment.decline_reason)]);
    for (const [dimension, value] of values) {
      const key = `${scope}|${dimension}|${value}`;
      const sum = sums.get(key) ?? { count: 0, volume: 0 };
      sums.set(key, { count: sum.count + 1, volume: sum.volume + volume });
    }
  }
  return Object.fromEntries([...sums].sort(([left], [right]) => left.localeCompare(right)).map(([key, sum]) => [key, `${sum.count} ${sum.volume}`]));
}

export async function storedBuckets(database: Database): Promise<Buckets> {
  const rows = await queryRows<{ key: string; total: string }>(
    database,
    sql`select merchant_id || '|' || environment || '|' || day::text || '|' || currency || '|' || dimension || '|' || value as key,
      count::text || ' ' || volume_minor::text as total
      from payment_daily_stats where count <> 0 or volume_minor <> 0`,
  );
  return Object.fromEntries(rows.map((row) => [row.key, row.total]).sort(([left], [right]) => String(left).localeCompare(String(right))));
}

export async function deltaCount(database: Database): Promise<number> {
  const [row] = await queryRows<{ count: number }>(database, sql`select count(*)::int as count from payment_stat_deltas`);
  return Number(row?.count ?? 0);
}
