import type { Db } from '../../platform/database.ts';
import type { MerchantScope, PaymentRow } from '../store/payments-repo.ts';
import { listPaymentLogs } from '../store/payment-logs-repo.ts';
import { listRefundsOfPayment, type RefundRow } from '../store/refunds-repo.ts';
import { getPayment } from './find-payments.ts';

export interface PaymentDetail {
  payment: PaymentRow & { refunds: RefundRow[] }; // the payment with its refunds, oldest first
  logs: Awaited<ReturnType<typeof listPaymentLogs>>;
}

// One payment of the merchant's scope with its adapter interaction logs (spec 2.3).
export async function getPaymentDetail(db: Db, scope: MerchantScope, token: string): Promise<PaymentDetail> {
  const payment = await getPayment(db, scope, token);
  return { payment: { ...payment, refunds: await listRefundsOfPayment(db, payment.id) }, logs: await listPaymentLogs(db, payment.id) };
}
