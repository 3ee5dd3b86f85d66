import { commissionFor } from '../../domain/commission.ts';
import { checkoutUrl } from '../../domain/public-urls.ts';
import { selectorUrl } from '../../domain/selector-urls.ts';
import type { PaymentRow } from '../../store/payments-repo.ts';

// spec 2.4: the payout-create response; processingUrl is keyed by the alias of the gateway the payout went through,
// and payout names the payout with its status beside spec 2.4's payment object.
export function presentCreatedPayout(publicUrl: string, payout: PaymentRow, gatewayAlias: string) {
  return {
    success: true as const,
    result: 0,
    status: 200,
    errors: [],
    token: payout.token,
    processingUrl: [{ [gatewayAlias]: checkoutUrl(publicUrl, payout) }],
    selectorUrl: selectorUrl(publicUrl, payout),
    payment: {
      amount: payout.amountMinor,
      currency: payout.currency,
      gateway_amount: payout.gatewayAmountMinor,
      gateway_currency: payout.gatewayCurrency,
      status: payout.status,
      commission: commissionFor(payout.amountMinor, { percentBp: payout.commissionPercentBp, fixedMinor: payout.commissionFixedMinor }),
    },
    payout: { token: payout.token, status: payout.status },
  };
}
