// A provider callback speaks for one payment only (spec 5.6, 6.2, 2.10). Its JWT names no payment, so a
// genuine callback of one payment could be posted to another's URL: what it claims must match that payment.
import { AdapterStatusSchema, CallbackClaimsSchema } from '@payrail/adapter-kit';
import { Compile } from 'typebox/compile';
import type { ReportedStatus } from './payment-status.ts';

export interface CallbackClaimsRead {
  status: ReportedStatus;
  amount: number | null;
  currency: string | null;
  gatewayToken: string | null;
}

export interface PaymentBinding {
  gatewayToken: string | null;
  gatewayAmountMinor: number;
  gatewayCurrency: string;
}

// The kit's claims schema, field by field (each refused with its own reason), the status narrowed to the words
// Payrail takes.
const CLAIMS = CallbackClaimsSchema.properties;
const statusCheck = Compile(AdapterStatusSchema);
const amountCheck = Compile(CLAIMS.amount);
const currencyCheck = Compile(CLAIMS.currency);
const gatewayTokenCheck = Compile(CLAIMS.gateway_token);

// The claims we rely on, well typed, or the reason they are not.
export function readCallbackClaims(claims: Record<string, unknown>): CallbackClaimsRead | { refusal: string } {
  const { status, amount, currency, gateway_token: gatewayToken } = claims;
  if (!statusCheck.Check(status)) return { refusal: 'status must be approved, declined or pending' };
  if (amount !== undefined && !amountCheck.Check(amount)) return { refusal: 'amount must be an integer of minor units' };
  if (currency !== undefined && !currencyCheck.Check(currency)) return { refusal: 'currency must be a currency code' };
  if (gatewayToken !== undefined && !gatewayTokenCheck.Check(gatewayToken)) return { refusal: 'gateway_token must be a string' };
  return {
    status,
    amount: amountCheck.Check(amount) ? amount : null,
    currency: currencyCheck.Check(currency) ? currency : null,
    gatewayToken: typeof gatewayToken === 'string' && gatewayToken !== '' ? gatewayToken : null,
  };
}

// Why this callback cannot be about this payment, or null when it can. The amount may differ only where the
// gateway sets enable_update_amount; the currency never (the amount would be read in another currency).
export function callbackBindingRefusal(payment: PaymentBinding, claims: CallbackClaimsRead, options: { updateAmount: boolean }): string | null {
  if (claims.gatewayToken !== null && payment.gatewayToken !== null && claims.gatewayToken !== payment.gatewayToken) {
    return 'gateway_token is not this payment’s';
  }
  if (claims.currency !== null && claims.currency !== payment.gatewayCurrency) return 'currency is not this payment’s';
  if (claims.amount !== null && claims.amount !== payment.gatewayAmountMinor && !options.updateAmount) {
    return 'amount is not this payment’s, and the gateway does not set enable_update_amount';
  }
  return null;
}
