import { sql } from 'drizzle-orm';
import type { Db } from '../platform/database.ts';
import { errorCode } from '../platform/lib/type-guards.ts';
import { namedStatement } from '../platform/lib/named-statements.ts';

const UNIQUE_VIOLATION = '23505';

export interface RefundAtOnce {
  paymentToken: string;
  refundToken: string;
  gatewayToken: string;
  requestedMinor: number | null; // null: the whole remaining amount
  refundCountMax: number;
}

export interface ApprovedRefundRecord {
  paymentToken: string;
  gatewayToken: string;
  requestedMinor: number | null;
  amountMinor: number;
  currency: string;
}

type RecordedRow = { payment_token: string; gateway_token: string; requested_minor: string | number | null; amount_minor: string | number; currency: string };

const refundAtOnce = namedStatement<null, { rows: RecordedRow[] }>(
  'sandbox_refund',
  (_db, _shape, p) => sql`
      with target as (
        select payment_token, coalesce(${p('requestedMinor')}::bigint, amount_minor - refunded_minor) as amount
        from sandbox_transactions where payment_token = ${p('paymentToken')} and expires_at > ${p('now')}
      ), refunded as (
        update sandbox_transactions t set refunded_minor = t.refunded_minor + target.amount, refund_count = t.refund_count + 1
        from target
        where t.payment_token = target.payment_token and t.operation = 'pay' and t.status = 'approved' and t.expires_at > ${p('now')}
          and target.amount > 0 and t.refunded_minor + target.amount <= t.amount_minor and t.refund_count < ${p('refundCountMax')}
          and not exists (select 1 from sandbox_refunds where refund_token = ${p('refundToken')})
        returning t.payment_token, t.currency, target.amount
      )
      insert into sandbox_refunds (refund_token, payment_token, gateway_token, requested_minor, amount_minor, currency, status)
      select ${p('refundToken')}, payment_token, ${p('gatewayToken')}, ${p('requestedMinor')}::bigint, amount, currency, 'approved'
      from refunded
      returning payment_token, gateway_token, requested_minor, amount_minor, currency`,
);

// The common refund in one statement (no transaction around it): the live approved payment's refunded amount grows by
// the refund, while it stays within the approved amount and the refund count, and the refund is recorded under its
// token. 'not_approved': nothing changed (a refusal, or a token already recorded: the caller reads which);
// 'token_taken': a concurrent twin recorded the same token first and this statement changed nothing.
export async function recordApprovedRefund(db: Db, refund: RefundAtOnce): Promise<ApprovedRefundRecord | 'not_approved' | 'token_taken'> {
  const now = new Date();
  try {
    const result = await refundAtOnce.run(db, null, {
      requestedMinor: refund.requestedMinor,
      paymentToken: refund.paymentToken,
      now,
      refundCountMax: refund.refundCountMax,
      refundToken: refund.refundToken,
      gatewayToken: refund.gatewayToken,
    });
    const [row] = result.rows;
    if (!row) return 'not_approved';
    return {
      paymentToken: row.payment_token,
      gatewayToken: row.gateway_token,
      requestedMinor: row.requested_minor === null ? null : Number(row.requested_minor),
      amountMinor: Number(row.amount_minor),
      currency: row.currency,
    };
  } catch (error) {
    if (errorCode(error) === UNIQUE_VIOLATION || errorCode((error as { cause?: unknown }).cause) === UNIQUE_VIOLATION) return 'token_taken';
    throw error;
  }
}
