import {
  mapStatus,
  type AdapterAnswer,
  type AdapterStatus,
  type PayoutRequest,
  type PayRequest,
  type RefundRequest,
  type StatusTable,
} from '@payrail/adapter-kit';
import type { AcmeCharge, AcmePayout, AcmeRefund } from './acme-types.ts';

// Payrail's words ↔ Acme Pay's words. Pure functions: no I/O, so every row of every table is unit-tested.

// Acme charge state → Payrail status. A state not listed (one Acme adds later) is pending: only an explicit
// answer is final.
const CHARGE_STATUSES: StatusTable = {
  authorised: 'approved',
  refused: 'declined',
  processing: 'pending',
  challenge_required: 'pending',
};

const PAYOUT_STATUSES: StatusTable = { paid: 'approved', failed: 'declined', in_transit: 'pending' };

const REFUND_STATUSES: StatusTable = { succeeded: 'approved', failed: 'declined', pending: 'pending' };

// Acme refusal code → the decline reason Payrail records (it adds "gateway response error: ").
const REFUSAL_REASONS: Readonly<Record<string, string>> = {
  card_declined: 'Card declined by the issuer',
  insufficient_funds: 'Insufficient funds',
  expired_card: 'Card expired',
  incorrect_cvc: 'Incorrect CVV',
  do_not_honor: 'Do not honor',
  invalid_number: 'Invalid card number',
  authentication_failed: '3-D Secure authentication failed',
  amount_limit_exceeded: 'Amount exceeds the card limit',
  recipient_refused: 'Payout refused by the recipient bank',
  invalid_account: 'Invalid recipient account',
  refund_declined: 'Refund declined by Acme Pay',
};

// Where Acme's metadata carries what the webhook needs later (sealed, see sealed-context.ts).
const METADATA_TOKEN_KEY = 'payrail_token';
export const METADATA_CONTEXT_KEY = 'payrail_context';
const DESCRIPTION_CHARS_MAX = 512;
const NAME_CHARS_MAX = 256;
const CENTURY = 2000;

export type Mapped<Body> = { body: Body } | { refusal: string };

export function reasonOf(code: string | null, providerMessage: string | null = null): string {
  if (code !== null && Object.hasOwn(REFUSAL_REASONS, code)) return REFUSAL_REASONS[code]!;
  if (code !== null) return `Declined by Acme Pay (${code}${providerMessage ? `: ${providerMessage}` : ''})`;
  return providerMessage ?? 'Declined by Acme Pay';
}

const acmeCurrencyOf = (isoCode: string) => isoCode.toLowerCase();
export const payrailCurrencyOf = (acmeCode: string) => acmeCode.toUpperCase();

// spec 2.8 expires is MM/YY; Acme wants the month and the four-digit year.
export function expiryOf(expires: string): { exp_month: number; exp_year: number } | null {
  const match = /^(0[1-9]|1[0-2])\/([0-9]{2})$/.exec(expires);
  if (!match) return null;
  return { exp_month: Number(match[1]), exp_year: CENTURY + Number(match[2]) };
}

const digitsOf = (pan: string) => pan.replace(/\s+/g, '');

function fullName(customer: { first_name?: string | undefined; last_name?: string | undefined }): string | undefined {
  const name = [customer.first_name, customer.last_name].filter((part) => part !== undefined && part !== '').join(' ');
  return name === '' ? undefined : name.slice(0, NAME_CHARS_MAX);
}

function withoutUndefined<Value extends Record<string, unknown>>(value: Value): Value {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as Value;
}

export interface Links {
  webhookUrl: string; // this adapter's webhook endpoint
  sealedContext: string; // callback_url, keys: sealed for the webhook (sealed-context.ts)
}

export interface AcmeChargeBody {
  amount_cents: number;
  currency_code: string;
  card: { number: string; exp_month: number; exp_year: number; cvc: string };
  customer: { email?: string; ip_address?: string; name?: string; country?: string };
  reference: string;
  description?: string;
  webhook_url: string;
  return_url: string;
  metadata: Record<string, string>;
}

// A Host-to-Host /pay (spec 2.8) as an Acme charge. The payment token is the reference and the idempotency key.
export function chargeBodyOf(request: PayRequest, links: Links): Mapped<AcmeChargeBody> {
  const { params, payment } = request;
  const pan = params.pan ?? params.card?.pan;
  if (pan === undefined) return { refusal: 'Acme Pay needs the card: send pan, cvv and expires (Host-to-Host)' };
  if (params.card?.card_token_from !== undefined && params.pan === undefined) return { refusal: 'Acme Pay does not charge stored cards' };
  if (params.cvv === undefined) return { refusal: 'Acme Pay needs the card security code (cvv)' };
  const expiry = params.expires === undefined ? null : expiryOf(params.expires);
  if (expiry === null) return { refusal: 'Acme Pay needs the card expiry as MM/YY (expires)' };
  return {
    body: {
      amount_cents: payment.gateway_amount,
      currency_code: acmeCurrencyOf(payment.gateway_currency),
      card: { number: digitsOf(pan), ...expiry, cvc: params.cvv },
      customer: withoutUndefined({
        email: params.customer.email,
        ip_address: params.customer.ip,
        name: fullName(params.customer),
        country: params.customer.country,
      }),
      reference: payment.token,
      ...(payment.product === undefined ? {} : { description: payment.product.slice(0, DESCRIPTION_CHARS_MAX) }),
      webhook_url: links.webhookUrl,
      return_url: request.processing_url,
      metadata: { [METADATA_TOKEN_KEY]: payment.token, [METADATA_CONTEXT_KEY]: links.sealedContext },
    },
  };
}

// An Acme charge as the answer to /pay or /status (spec 2.9). challenge_required sends the customer to Acme's
// challenge page; Acme brings them back to processing_url.
export function chargeAnswerOf(charge: AcmeCharge): AdapterAnswer {
  const status = mapStatus(charge.state, CHARGE_STATUSES);
  const answer: AdapterAnswer = {
    result: true,
    status,
    gateway_token: charge.id,
    amount: charge.amount_cents,
    currency: payrailCurrencyOf(charge.currency_code),
    gateway_details: withoutUndefined({ acme_state: charge.state, card_last4: charge.card?.last4, card_brand: charge.card?.brand }),
  };
  if (status === 'declined') return withDecline(answer, reasonOf(charge.refusal_code, charge.refusal_message ?? null));
  if (status === 'pending' && charge.state === 'challenge_required' && charge.next_action !== null) {
    return { ...answer, redirect_request: { url: charge.next_action.redirect_url, type: 'get' } };
  }
  return answer;
}

export interface AcmePayoutBody {
  amount_cents: number;
  currency_code: string;
  destination: { type: 'card'; card_number: string } | { type: 'bank_account'; account_number: string; bank_code?: string };
  recipient: { name?: string; email?: string };
  reference: string;
  webhook_url?: string;
  metadata: Record<string, string>;
}

// Section 4 /payout: to the card when one is given, else to the bank account. Without links (no callback_url or
// merchant key to report to) Acme sends no webhook: the payout is settled by /status.
export function payoutBodyOf(request: PayoutRequest, links: Links | null): Mapped<AcmePayoutBody> {
  const { params } = request;
  const pan = params.card?.pan;
  const accountNumber = params.bank_account?.account_number;
  let destination: AcmePayoutBody['destination'];
  if (pan !== undefined) destination = { type: 'card', card_number: digitsOf(pan) };
  else if (accountNumber !== undefined && accountNumber !== '') {
    const bankCode = params.bank_account?.bank_code;
    destination = { type: 'bank_account', account_number: accountNumber, ...(bankCode === undefined ? {} : { bank_code: bankCode }) };
  } else return { refusal: 'Acme Pay pays out to a card (params.card.pan) or a bank account (params.bank_account.account_number)' };
  return {
    body: {
      amount_cents: params.amount,
      currency_code: acmeCurrencyOf(params.currency),
      destination,
      recipient: withoutUndefined({ name: fullName(params.customer), email: params.customer.email }),
      reference: request.payment.token,
      ...(links === null ? {} : { webhook_url: links.webhookUrl }),
      metadata: { [METADATA_TOKEN_KEY]: request.payment.token, ...(links === null ? {} : { [METADATA_CONTEXT_KEY]: links.sealedContext }) },
    },
  };
}

export function payoutAnswerOf(payout: AcmePayout): AdapterAnswer {
  const status = mapStatus(payout.state, PAYOUT_STATUSES);
  const answer: AdapterAnswer = {
    result: true,
    status,
    gateway_token: payout.id,
    amount: payout.amount_cents,
    currency: payrailCurrencyOf(payout.currency_code),
    gateway_details: { acme_state: payout.state },
  };
  return status === 'declined' ? withDecline(answer, reasonOf(payout.failure_code)) : answer;
}

export interface AcmeRefundBody {
  amount_cents: number;
  reason: string;
  metadata: Record<string, string>;
}

// The refund token is the idempotency key: Payrail re-sends a refund whose answer it missed, Acme answers the first.
export function refundBodyOf(request: RefundRequest): AcmeRefundBody {
  return { amount_cents: request.refund.amount, reason: 'requested_by_merchant', metadata: { payrail_refund_token: request.refund.token } };
}

export function refundAnswerOf(refund: AcmeRefund): AdapterAnswer {
  const status = mapStatus(refund.state, REFUND_STATUSES);
  const answer: AdapterAnswer = {
    result: true,
    status,
    gateway_token: refund.id,
    amount: refund.amount_cents,
    currency: payrailCurrencyOf(refund.currency_code),
  };
  return status === 'declined' ? withDecline(answer, reasonOf(refund.failure_code)) : answer;
}

// spec 7.8: a business decline is result=true, status=declined and a reason (details; declination_reason first).
function withDecline(answer: AdapterAnswer, reason: string): AdapterAnswer {
  return { ...answer, details: reason, declination_reason: reason };
}

export interface CallbackStatus {
  status: AdapterStatus;
  amount: number;
  currency: string;
  reason?: string;
  gateway_token: string;
}

// spec 5.6 claims (without secure and logs) from an Acme charge or payout of a webhook.
export function callbackStatusOf(answer: AdapterAnswer): CallbackStatus | null {
  if (answer.status === undefined || answer.amount === undefined || answer.currency === undefined || answer.gateway_token === undefined) return null;
  return {
    status: answer.status,
    amount: answer.amount,
    currency: answer.currency,
    gateway_token: answer.gateway_token,
    ...(answer.status === 'declined' && answer.details !== undefined ? { reason: answer.details } : {}),
  };
}
