import type { Db } from '../../platform/database.ts';
import type { MerchantScope, PaymentRow } from '../store/payments-repo.ts';
import { listPaymentLogs } from '../store/payment-logs-repo.ts';
import { listRefundsOfPayment, type RefundRow } from '../store/refunds-repo.ts';
import { testClockTokenOf } from '../store/test-clocks-repo.ts';
import { getPayment } from './find-payments.ts';

export interface PaymentDetail {
  // the payment with its refunds, oldest first, and the id of the sandbox test clock it lives by, if any
  payment: PaymentRow & { refunds: RefundRow[]; testClock?: string };
  logs: Awaited<ReturnType<typeof listPaymentLogs>>;
}

// One payment of the merchant's scope with its adapter interaction logs (spec 2.3).
export async function getPaymentDetail(db: Db, scope: MerchantScope, token: string): Promise<PaymentDetail> {
  const payment = await getPayment(db, scope, token);
  const testClock = payment.testClockId === null ? null : await testClockTokenOf(db, payment.testClockId);
  const refunds = await listRefundsOfPayment(db, payment.id);
  return { payment: { ...payment, refunds, ...(testClock === null ? {} : { testClock }) }, logs: await listPaymentLogs(db, payment.id) };
}
