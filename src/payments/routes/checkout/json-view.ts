import { requisitesForType } from '../../domain/requisites.ts';
import { processPayment, type ProcessingDeps } from '../../flows/process-payment.ts';
import { checkoutUrl, payoutStatusUrl } from '../../domain/public-urls.ts';
import type { PaymentRow } from '../../store/payments-repo.ts';

export function wantsJson(accept: string | undefined, payment: PaymentRow): boolean {
  return payment.requestVariant === 'C' || (accept ?? '').includes('application/json');
}

// The Host-to-Host view of processingUrl: a bank_account payment is sent to its adapter on the first GET,
// and the requisites it answers are mapped as spec 2.9 says. Its GET is the merchant's server's: cause api.
export async function checkoutJson(deps: ProcessingDeps, initial: PaymentRow, clientIp: string) {
  const { bankAccount } = initial;
  const payment = initial.status === 'init' && bankAccount ? await processPayment(deps, initial, null, { ip: clientIp }, 'api') : initial;
  const requisiteType = bankAccount?.requisiteType ?? null;
  return {
    success: true,
    result: 0,
    status: 200,
    token: payment.token,
    processingUrl: (payment.operationType === 'payout' ? payoutStatusUrl : checkoutUrl)(deps.context.config.publicUrl, payment),
    payment: {
      amount: payment.amountMinor,
      currency: payment.currency,
      gateway_amount: payment.gatewayAmountMinor,
      gateway_currency: payment.gatewayCurrency,
      status: payment.status,
    },
    ...requisitesForType(payment.requisites, requisiteType),
  };
}
