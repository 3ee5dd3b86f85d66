import type { AppContext } from '../../app-context.ts';
import { paymentMethodOf, type PaymentMethod } from '../contract/gateway-settings.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { gatewayForPayment } from './gateway-routing.ts';

// What the hosted page asks the customer for: what the gateway the payment would be sent through now takes
// (the customer's pick, routing's choice without a card, or the merchant's first active gateway). Without a
// gateway the card form stands, and its post gets the page saying nothing was charged.
export async function checkoutPaymentMethod(
  context: AppContext,
  payment: Pick<PaymentRow, 'id' | 'merchantId' | 'environment' | 'chosenGatewayId'>,
): Promise<PaymentMethod> {
  try {
    const { gateway } = await gatewayForPayment(context, payment, null);
    return paymentMethodOf(gateway.settings);
  } catch (error) {
    if (error instanceof ApiError) return 'card';
    throw error;
  }
}
