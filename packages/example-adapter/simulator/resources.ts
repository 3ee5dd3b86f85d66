import type { ChargeRefusalCode, ChargeScenario, PayoutFailureCode } from './test-cards.ts';

// Acme Pay's resource model as its API shows it (snake_case, cents, lowercase currencies), and what the
// simulator keeps beside each resource. Card numbers are never kept: only the last four digits.

type ChargeState = 'authorised' | 'refused' | 'processing' | 'challenge_required';

export interface ChargeView {
  id: string; // ch_…
  object: 'charge';
  created_at: string;
  amount_cents: number;
  currency_code: string;
  state: ChargeState;
  refusal_code: ChargeRefusalCode | null;
  refusal_message: string | null;
  reference: string;
  card: { last4: string; brand: string; exp_month: number; exp_year: number };
  amount_refunded_cents: number;
  next_action: { type: 'redirect'; redirect_url: string } | null;
  metadata: Record<string, string>;
}

export interface ChargeRecord {
  accountId: string;
  view: ChargeView;
  scenario: ChargeScenario;
  webhookUrl: string | null;
  returnUrl: string | null;
}

type RefundState = 'succeeded' | 'failed';

interface RefundView {
  id: string; // re_…
  object: 'refund';
  created_at: string;
  charge_id: string;
  amount_cents: number;
  currency_code: string;
  state: RefundState;
  failure_code: 'refund_declined' | null;
  metadata: Record<string, string>;
}

type PayoutState = 'paid' | 'failed' | 'in_transit';

interface PayoutView {
  id: string; // po_…
  object: 'payout';
  created_at: string;
  amount_cents: number;
  currency_code: string;
  state: PayoutState;
  failure_code: PayoutFailureCode | null;
  destination: { type: 'card' | 'bank_account'; last4: string };
  reference: string;
  metadata: Record<string, string>;
}

export interface PayoutRecord {
  accountId: string;
  view: PayoutView;
  finalFailureCode: PayoutFailureCode | null; // where an in-transit payout ends
  webhookUrl: string | null;
}

export interface RefundRecord {
  accountId: string;
  view: RefundView;
}

export const REFUSAL_MESSAGES: Readonly<Record<ChargeRefusalCode, string>> = {
  card_declined: 'The card was declined.',
  insufficient_funds: 'The card has insufficient funds.',
  expired_card: 'The card has expired.',
  incorrect_cvc: 'The CVC is incorrect.',
  do_not_honor: 'The issuer declined the charge (do not honor).',
  invalid_number: 'The card number is not valid.',
  authentication_failed: 'The cardholder failed the challenge.',
  amount_limit_exceeded: 'The amount is above the limit of this card.',
};

// The brand Acme reports, from the leading digits.
export function brandOf(cardNumber: string): string {
  if (cardNumber.startsWith('4')) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(cardNumber)) return 'mastercard';
  if (/^3[47]/.test(cardNumber)) return 'amex';
  return 'unknown';
}
