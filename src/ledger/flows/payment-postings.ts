import type { Db } from '../../platform/database.ts';
import { listPaymentPostings, type PaymentPosting } from '../store/payment-postings-repo.ts';

export type { PaymentPosting };

// What one payment posted to its merchant's ledger (its capture, refunds, disputes), for the payment's history.
export async function postingsOfPayment(
  db: Db,
  scope: { merchantId: number; environment: 'sandbox' | 'production' },
  paymentId: number,
): Promise<PaymentPosting[]> {
  return listPaymentPostings(db, scope, paymentId);
}
