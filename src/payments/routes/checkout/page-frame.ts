import type { CheckoutPayment } from '../../flows/checkout-payment.ts';
import type { PageFrame } from './layout.ts';

// A payment's pages name its merchant and, for a sandbox payment, carry the test-mode band.
export function pageFrame(payment: CheckoutPayment): PageFrame {
  return { merchant: payment.merchantDisplayName, testMode: payment.environment === 'sandbox' };
}
