import { and, asc, eq, gt, gte, lt } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import type { Environment } from './merchants-repo.ts';
import { payments, refunds } from './schema.ts';

// Pages of the CSV exports: rows created in [from, to), in id order after the last row of the page before (keyset),
// of one merchant and environment (a merchant key), or of every merchant (the admin API, optionally one merchant).

export interface ExportScope {
  merchantId: number | null; // null: every merchant
  environment: Environment | null; // null: both
  from: Date;
  to: Date;
}

export type PaymentExportRow = Pick<
  typeof payments.$inferSelect,
  | 'id'
  | 'token'
  | 'merchantId'
  | 'environment'
  | 'operationType'
  | 'status'
  | 'amountMinor'
  | 'currency'
  | 'gatewayAmountMinor'
  | 'gatewayCurrency'
  | 'capturedMinor'
  | 'refundedMinor'
  | 'orderNumber'
  | 'product'
  | 'cardMask'
  | 'declineReason'
  | 'gatewayAlias'
  | 'gatewayToken'
  | 'createdAt'
  | 'finalizedAt'
>;

export async function paymentExportPage(
  db: Db,
  scope: ExportScope,
  operationType: 'pay' | 'payout',
  afterId: number,
  limit: number,
): Promise<PaymentExportRow[]> {
  return db
    .select({
      id: payments.id,
      token: payments.token,
      merchantId: payments.merchantId,
      environment: payments.environment,
      operationType: payments.operationType,
      status: payments.status,
      amountMinor: payments.amountMinor,
      currency: payments.currency,
      gatewayAmountMinor: payments.gatewayAmountMinor,
      gatewayCurrency: payments.gatewayCurrency,
      capturedMinor: payments.capturedMinor,
      refundedMinor: payments.refundedMinor,
      orderNumber: payments.orderNumber,
      product: payments.product,
      cardMask: payments.cardMask, // the mask (first 6 / last 4) is all Payrail keeps of a card number
      declineReason: payments.declineReason,
      gatewayAlias: payments.gatewayAlias,
      gatewayToken: payments.gatewayToken,
      createdAt: payments.createdAt,
      finalizedAt: payments.finalizedAt,
    })
    .from(payments)
    .where(
      and(
        scope.merchantId === null ? undefined : eq(payments.merchantId, scope.merchantId),
        scope.environment === null ? undefined : eq(payments.environment, scope.environment),
        eq(payments.operationType, operationType),
        gte(payments.createdAt, scope.from),
        lt(payments.createdAt, scope.to),
        gt(payments.id, afterId),
      ),
    )
    .orderBy(asc(payments.id))
    .limit(limit);
}

export interface RefundExportRow {
  id: number;
  token: string;
  paymentToken: string;
  merchantId: number;
  environment: Environment;
  status: string;
  amountMinor: number;
  currency: string;
  declineReason: string | null;
  createdAt: Date;
  finalizedAt: Date | null;
}

export async function refundExportPage(db: Db, scope: ExportScope, afterId: number, limit: number): Promise<RefundExportRow[]> {
  return db
    .select({
      id: refunds.id,
      token: refunds.token,
      paymentToken: payments.token,
      merchantId: refunds.merchantId,
      environment: refunds.environment,
      status: refunds.status,
      amountMinor: refunds.amountMinor,
      currency: refunds.currency,
      declineReason: refunds.declineReason,
      createdAt: refunds.createdAt,
      finalizedAt: refunds.finalizedAt,
    })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        scope.merchantId === null ? undefined : eq(refunds.merchantId, scope.merchantId),
        scope.environment === null ? undefined : eq(refunds.environment, scope.environment),
        gte(refunds.createdAt, scope.from),
        lt(refunds.createdAt, scope.to),
        gt(refunds.id, afterId),
      ),
    )
    .orderBy(asc(refunds.id))
    .limit(limit);
}
