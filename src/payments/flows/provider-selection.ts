import type { AppContext } from '../../app-context.ts';
import { findCheckoutPaymentByToken } from '../store/checkout-repo.ts';
import type { PaymentRow } from '../store/payments-repo.ts';
import { recordChosenGateway } from '../store/gateway-choice-repo.ts';
import { listActiveGateways } from '../store/gateways-repo.ts';
import type { Environment } from '../store/merchants-repo.ts';
import { findPaymentByTokenUnscoped } from '../store/processing-repo.ts';
import { SANDBOX_GATEWAY_ALIAS } from './gateways.ts';
import { previewRoutedAlias, routingPoolAmong } from './gateway-routing.ts';

// spec 2.2: the provider-selection page (selectorUrl) offers the merchant's active gateways of the payment's
// environment; the sandbox environment has one, the built-in sandbox gateway. With a routing pool (spec 2.10
// enable_routing) the service picks the gateway itself: no choice is offered.

export interface ProviderChoices {
  payment: PaymentRow;
  merchantDisplayName: string; // as the checkout pages show the merchant
  aliases: string[];
  routed: boolean; // the service picks the gateway: the selector forwards to the payment page
}

export type ProviderChoiceOutcome =
  | { kind: 'unknown_payment' }
  | { kind: 'unknown_gateway'; payment: PaymentRow }
  | { kind: 'routed'; payment: PaymentRow } // nothing recorded: routing decides
  | { kind: 'chosen'; payment: PaymentRow };

// Null: no payment has this token (the token is the customer's capability, as on the payment page).
export async function providerChoicesFor(context: AppContext, token: string): Promise<ProviderChoices | null> {
  const found = await findCheckoutPaymentByToken(context.database.db, token);
  if (!found) return null;
  const { payment, merchantDisplayName } = found;
  const offer = await offeredGateways(context, payment.merchantId, payment.environment);
  return { payment, merchantDisplayName, aliases: offer.gateways.map((gateway) => gateway.alias), routed: offer.routed };
}

// Records the customer's choice while the payment is init; a payment already sent keeps its gateway.
export async function chooseProvider(context: AppContext, token: string, alias: string): Promise<ProviderChoiceOutcome> {
  const db = context.database.db;
  const payment = await findPaymentByTokenUnscoped(db, token);
  if (!payment) return { kind: 'unknown_payment' };
  const offer = await offeredGateways(context, payment.merchantId, payment.environment);
  const chosen = offer.gateways.find((gateway) => gateway.alias === alias);
  if (!chosen) return { kind: 'unknown_gateway', payment };
  if (offer.routed) return { kind: 'routed', payment };
  if (payment.status === 'init' && chosen.id !== payment.chosenGatewayId) await recordChosenGateway(db, payment.id, chosen.id);
  return { kind: 'chosen', payment };
}

// spec 2.2: the providers a create response names, in the order shown: several (no routing, more than one
// active gateway) make processingUrl a list with a selector; one names the gateway the payment goes through
// (variant C keys processingUrl with it; with routing, the one routing picks); none: a production merchant
// without an active gateway.
export async function processingProvidersFor(
  context: AppContext,
  merchant: { merchantId: number; environment: Environment },
  payment: Pick<PaymentRow, 'token' | 'currency' | 'amountMinor' | 'bankAccount'>,
): Promise<string[]> {
  const offer = await offeredGateways(context, merchant.merchantId, merchant.environment);
  if (!offer.routed) return offer.gateways.map((gateway) => gateway.alias);
  const routedAlias = previewRoutedAlias(routingPoolAmong(context, offer.rows), payment);
  return routedAlias === null ? [] : [routedAlias];
}

interface OfferedGateways {
  gateways: { id: number | null; alias: string }[];
  rows: Awaited<ReturnType<typeof listActiveGateways>>;
  routed: boolean;
}

// The built-in sandbox gateway has no row (id null); production gateways are listed oldest first, as
// resolveGateway picks them.
async function offeredGateways(context: AppContext, merchantId: number, environment: Environment): Promise<OfferedGateways> {
  if (environment === 'sandbox') return { gateways: [{ id: null, alias: SANDBOX_GATEWAY_ALIAS }], rows: [], routed: false };
  const rows = await listActiveGateways(context.database.db, merchantId, environment);
  const routed = rows.length > 0 && routingPoolAmong(context, rows).length > 0;
  return { gateways: rows.map((row) => ({ id: row.id, alias: row.alias })), rows, routed };
}
