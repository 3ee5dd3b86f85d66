import { ApiError } from '../../platform/lib/errors.ts';
import { findCheckoutPaymentByToken } from '../store/checkout-repo.ts';
import type { Db } from '../../platform/database.ts';
import type { PaymentRow } from '../store/payments-repo.ts';

// What the checkout pages show besides the payment: the merchant by its display name (its name when none is set).
export type CheckoutPayment = PaymentRow & { merchantDisplayName: string };

// The hosted page knows a payment by its token alone: the token is the customer's capability.
export async function loadCheckoutPayment(db: Db, token: string): Promise<CheckoutPayment> {
  const found = await findCheckoutPaymentByToken(db, token);
  if (!found) throw new ApiError('not_found', 404, 'payment not found');
  return { ...found.payment, merchantDisplayName: found.merchantDisplayName };
}
