import type { AppContext } from '../../app-context.ts';
import type { PaymentMethod } from '../contract/gateway-settings.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { findCheckoutPaymentByToken } from '../store/checkout-repo.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { checkoutPaymentMethod } from './checkout-method.ts';

// What the checkout pages show besides the payment: the merchant by its display name (its name when none is set),
// and, while the customer still has a form to fill (a card payment in init), what that form asks for.
export type CheckoutPayment = PaymentRow & { merchantDisplayName: string; paymentMethod: PaymentMethod | null };

// The hosted page knows a payment by its token alone: the token is the customer's capability. Every checkout route
// loads the payment here, then calls the one flow of its action.
export async function loadCheckoutPayment(context: AppContext, token: string): Promise<CheckoutPayment> {
  const found = await findCheckoutPaymentByToken(context.database.db, token);
  if (!found) throw new ApiError('not_found', 404, 'payment not found');
  const payment = found.payment;
  const formShown = payment.status === 'init' && payment.walletToken === null && payment.operationType === 'pay';
  const paymentMethod = formShown ? await checkoutPaymentMethod(context, payment) : null;
  return { ...payment, merchantDisplayName: found.merchantDisplayName, paymentMethod };
}
