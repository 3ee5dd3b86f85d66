import { randomBytes } from 'node:crypto';
import type { PayoutRequest, PayRequest, RefundRequest, StatusRequest } from '../request-schemas.ts';
import type { AdapterSettings } from '../settings-schema.ts';
import type { CallbackListener } from './callback-listener.ts';

// Contract-valid requests (spec 2.8, section 4), as Payrail sends them: every required key, no null.

export interface BodyContext {
  settings: AdapterSettings;
  listener: CallbackListener;
  amountMinor: number;
  currency: string;
  merchantKey: string;
}

export function runId(): string {
  return randomBytes(6).toString('hex');
}

export function newToken(prefix: string): string {
  return `conf_${prefix}_${randomBytes(9).toString('base64url')}`;
}

export function settingsFor(options: {
  url: string;
  signKey: string;
  apiKey: string;
  sandbox: boolean;
  timeoutS: number;
  extra: Record<string, unknown>;
}): AdapterSettings {
  const methodSettings = { response_timeout: options.timeoutS };
  // Provider keys go where Payrail keeps them: at the top level, or inside gateway_settings when given there.
  const { gateway_settings: extraGatewaySettings, ...extraTopLevel } = options.extra;
  const providerGatewayKeys = typeof extraGatewaySettings === 'object' && extraGatewaySettings !== null ? extraGatewaySettings : {};
  return {
    ...extraTopLevel,
    api_key: options.apiKey,
    sign_key: options.signKey,
    sandbox: options.sandbox,
    validate_signature: true,
    gateway_settings: {
      ...providerGatewayKeys,
      processing_method: 'http_requests',
      full_link: options.url,
      methods: { pay: methodSettings, payout: methodSettings, status: methodSettings, refund: methodSettings },
    },
  };
}

// pan null: a payment without card data, as Payrail sends one to a redirect or bank_account gateway.
export function payBody(context: BodyContext, pan: string | null, token = newToken('pay')): PayRequest {
  return {
    method_name: 'pay',
    params: {
      customer: { email: 'conformance@example.com', ip: '203.0.113.10', first_name: 'Ada', last_name: 'Lovelace', country: 'GB' },
      ...(pan === null ? {} : { pan, cvv: '123', expires: '12/30', card: { pan } }),
      recurring: false,
      need_confirmation: false,
    },
    payment: {
      token,
      merchant_private_key: context.merchantKey,
      gateway_amount: context.amountMinor,
      gateway_currency: context.currency,
      product: 'Conformance check',
      lead_id: 1,
      order_number: token,
    },
    settings: context.settings,
    processing_url: context.listener.processingUrl(token),
    callback_url: context.listener.callbackUrl(token),
  };
}

// Variant C (spec 2.1) as Payrail forwards it: bank_account without card data, and without requisite_type when the
// merchant gave none (src/payments/flows/adapter-requests.ts repeats bank_code as bank_name).
export function bankAccountPayBody(context: BodyContext): PayRequest {
  const body = payBody(context, null, newToken('bank'));
  return { ...body, params: { ...body.params, bank_account: { account_number: 'GB33BUKB20201555555555', bank_code: 'BUKB', bank_name: 'BUKB' } } };
}

export function payoutBody(context: BodyContext, pan: string, token = newToken('payout')): PayoutRequest {
  return {
    method_name: 'payout',
    params: {
      amount: context.amountMinor,
      currency: context.currency,
      customer: { email: 'conformance@example.com', ip: '203.0.113.10', first_name: 'Ada', last_name: 'Lovelace' },
      card: { pan },
    },
    payment: { token, merchant_private_key: context.merchantKey, gateway_amount: context.amountMinor, gateway_currency: context.currency, lead_id: 1 },
    settings: context.settings,
    processing_url: context.listener.processingUrl(token),
    callback_url: context.listener.callbackUrl(token),
  };
}

export function statusBody(context: BodyContext, token: string, gatewayToken?: string): StatusRequest {
  return { method_name: 'status', payment: { token, ...(gatewayToken === undefined ? {} : { gateway_token: gatewayToken }) }, settings: context.settings };
}

export function refundBody(context: BodyContext, token: string, gatewayToken: string | undefined, amountMinor: number): RefundRequest {
  return {
    method_name: 'refund',
    payment: { token, ...(gatewayToken === undefined ? {} : { gateway_token: gatewayToken }), currency: context.currency },
    refund: { amount: amountMinor, token: newToken('refund') },
    settings: context.settings,
  };
}

// Well-formed JSON the contract refuses: no payment, no settings.
export function malformedBody(method: string): string {
  return JSON.stringify({ method_name: method, payment: { token: 42 } });
}
