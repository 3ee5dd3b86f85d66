import type { AppContext } from '../app-context.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { recordChosenGateway } from '../store/gateway-choice-repo.ts';
import { listGateways } from '../store/gateways-repo.ts';
import type { Environment } from '../store/merchants-repo.ts';
import { findPaymentByTokenUnscoped } from '../store/processing-repo.ts';
import { SANDBOX_GATEWAY_ALIAS } from './gateways.ts';

// spec 2.2: the provider-selection page (selectorUrl) offers the merchant's active gateways of the payment's
// environment; the sandbox environment has one, the built-in sandbox gateway.

export interface ProviderChoices {
  payment: PaymentRow;
  aliases: string[];
}

export type ProviderChoiceOutcome = { kind: 'unknown_payment' } | { kind: 'unknown_gateway'; payment: PaymentRow } | { kind: 'chosen'; payment: PaymentRow };

// Null: no payment has this token (the token is the customer's capability, as on the payment page).
export async function providerChoicesFor(context: AppContext, token: string): Promise<ProviderChoices | null> {
  const payment = await findPaymentByTokenUnscoped(context.database.db, token);
  if (!payment) return null;
  const gateways = await activeGateways(context, payment.merchantId, payment.environment);
  return { payment, aliases: gateways.map((gateway) => gateway.alias) };
}

// Records the customer's choice while the payment is init; a payment already sent keeps its gateway.
export async function chooseProvider(context: AppContext, token: string, alias: string): Promise<ProviderChoiceOutcome> {
  const db = context.database.db;
  const payment = await findPaymentByTokenUnscoped(db, token);
  if (!payment) return { kind: 'unknown_payment' };
  const chosen = (await activeGateways(context, payment.merchantId, payment.environment)).find((gateway) => gateway.alias === alias);
  if (!chosen) return { kind: 'unknown_gateway', payment };
  if (payment.status === 'init' && chosen.id !== payment.chosenGatewayId) await recordChosenGateway(db, payment.id, chosen.id);
  return { kind: 'chosen', payment };
}

// spec 2.2 variant C: processingUrl is keyed by the provider's name, the alias of the gateway the payment will
// go through. Null for the other variants (no lookup on their path) and for a production merchant without an
// active gateway.
export async function processingUrlKey(
  context: AppContext,
  merchant: { merchantId: number; environment: Environment },
  payment: Pick<PaymentRow, 'requestVariant'>,
): Promise<string | null> {
  if (payment.requestVariant !== 'C') return null;
  return (await activeGateways(context, merchant.merchantId, merchant.environment))[0]?.alias ?? null;
}

// The built-in sandbox gateway has no row (id null); production gateways are listed oldest first, as
// resolveGateway picks them.
async function activeGateways(context: AppContext, merchantId: number, environment: Environment): Promise<{ id: number | null; alias: string }[]> {
  if (environment === 'sandbox') return [{ id: null, alias: SANDBOX_GATEWAY_ALIAS }];
  const gateways = await listGateways(context.database.db, merchantId);
  return gateways.filter((gateway) => gateway.environment === environment && gateway.status === 'active');
}
