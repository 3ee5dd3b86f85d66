import { ApiError } from '../lib/errors.ts';
import type { Db } from '../store/database.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { findPaymentByTokenUnscoped } from '../store/processing-repo.ts';

// The hosted page knows a payment by its token alone: the token is the customer's capability.
export async function loadCheckoutPayment(db: Db, token: string): Promise<PaymentRow> {
  const payment = await findPaymentByTokenUnscoped(db, token);
  if (!payment) throw new ApiError('not_found', 404, 'payment not found');
  return payment;
}
