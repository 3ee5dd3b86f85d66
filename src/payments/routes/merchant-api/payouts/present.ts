import { commissionFor } from '../../../../ledger/index.ts';
import { payoutStatusUrl } from '../../../domain/public-urls.ts';
import type { PaymentRow } from '../../../store/payments-repo.ts';

// spec 2.4: the payout-create response; processingUrl is keyed by the alias of the gateway the payout went through,
// and payout names the payout with its status beside spec 2.4's payment object. Both URLs lead to the payout's
// read-only status page (a payout has no customer step to take).
export function presentCreatedPayout(publicUrl: string, payout: PaymentRow, gatewayAlias: string) {
  return {
    success: true as const,
    result: 0,
    status: 200,
    errors: [],
    token: payout.token,
    processingUrl: [{ [gatewayAlias]: payoutStatusUrl(publicUrl, payout) }],
    selectorUrl: payoutStatusUrl(publicUrl, payout),
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
