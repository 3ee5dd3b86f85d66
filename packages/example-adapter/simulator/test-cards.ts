// Acme Pay's test cards: what the simulator does with a charge or a payout, decided by the card number and
// the amount alone, so every run of a test sees the same outcome.

export type ChargeRefusalCode =
  | 'card_declined'
  | 'insufficient_funds'
  | 'expired_card'
  | 'incorrect_cvc'
  | 'do_not_honor'
  | 'invalid_number'
  | 'authentication_failed'
  | 'amount_limit_exceeded';

export type PayoutFailureCode = 'recipient_refused' | 'invalid_account' | 'amount_limit_exceeded';

// How a charge behaves:
// - immediate: its final state is in the create answer;
// - processing_webhook: `processing` first, final after the processing delay, announced by a webhook;
// - processing_silent: the same, but no webhook: only GET /v2/charges/:id tells (status polling);
// - challenge: `challenge_required` with a redirect; final once the customer passes or fails the challenge;
// - slow: the charge is recorded at once, but the create answer comes only after the slow-response delay.
type ChargeFlow = 'immediate' | 'processing_webhook' | 'processing_silent' | 'challenge' | 'slow';

export interface ChargeScenario {
  flow: ChargeFlow;
  refusalCode: ChargeRefusalCode | null; // null: the charge ends authorised
  refundsFail: boolean; // refunds of this charge end `failed` (refund_declined)
  description: string;
}

// Acme's own numbers, none of them a Payrail sandbox test card (Payrail's production refuses those before any
// gateway sees them).
export const ACME_TEST_CARDS = {
  authorised: '4111111111111111',
  cardDeclined: '4917610000000026',
  insufficientFunds: '4917610000009951',
  expiredCard: '4917610000000695',
  incorrectCvc: '4917610000001271',
  processingAuthorised: '4917610000001198',
  processingRefused: '4917610000002592',
  processingSilent: '4917610000001016',
  challenge: '4917610000003228',
  slow: '4917610000003418',
  refundsFail: '4917610000005124',
} as const;

// A charge above this amount (minor units) is refused, whatever the card.
const CHARGE_AMOUNT_LIMIT_CENTS = 5_000_000;

const SCENARIOS: Readonly<Record<string, ChargeScenario>> = {
  [ACME_TEST_CARDS.authorised]: scenario('immediate', null, 'authorised at once'),
  [ACME_TEST_CARDS.cardDeclined]: scenario('immediate', 'card_declined', 'refused: card_declined'),
  [ACME_TEST_CARDS.insufficientFunds]: scenario('immediate', 'insufficient_funds', 'refused: insufficient_funds'),
  [ACME_TEST_CARDS.expiredCard]: scenario('immediate', 'expired_card', 'refused: expired_card'),
  [ACME_TEST_CARDS.incorrectCvc]: scenario('immediate', 'incorrect_cvc', 'refused: incorrect_cvc'),
  [ACME_TEST_CARDS.processingAuthorised]: scenario('processing_webhook', null, 'processing, then authorised and a webhook'),
  [ACME_TEST_CARDS.processingRefused]: scenario('processing_webhook', 'do_not_honor', 'processing, then refused (do_not_honor) and a webhook'),
  [ACME_TEST_CARDS.processingSilent]: scenario('processing_silent', null, 'processing, then authorised without a webhook (poll it)'),
  [ACME_TEST_CARDS.challenge]: scenario('challenge', null, 'challenge_required; authorised when the challenge passes'),
  [ACME_TEST_CARDS.slow]: scenario('slow', null, 'authorised, answered only after the slow-response delay'),
  [ACME_TEST_CARDS.refundsFail]: { ...scenario('immediate', null, 'authorised; its refunds fail (refund_declined)'), refundsFail: true },
};

const ANY_OTHER_CARD = scenario('immediate', null, 'any other valid card: authorised at once');

function scenario(flow: ChargeFlow, refusalCode: ChargeRefusalCode | null, description: string): ChargeScenario {
  return { flow, refusalCode, refundsFail: false, description };
}

export interface CardFacts {
  number: string;
  expMonth: number;
  expYear: number;
  amountCents: number;
  now: Date;
}

// The card checks come first (a bad number or a past expiry is refused at once), then the amount, then the card's
// own scenario.
export function chargeScenarioOf(card: CardFacts): ChargeScenario {
  if (!passesLuhn(card.number)) return scenario('immediate', 'invalid_number', 'fails the Luhn check');
  if (isExpired(card.expMonth, card.expYear, card.now)) return scenario('immediate', 'expired_card', 'expiry in the past');
  if (card.amountCents > CHARGE_AMOUNT_LIMIT_CENTS) return scenario('immediate', 'amount_limit_exceeded', 'amount above the limit');
  return SCENARIOS[card.number] ?? ANY_OTHER_CARD;
}

type PayoutFlow = 'immediate' | 'in_transit';

export interface PayoutScenario {
  flow: PayoutFlow;
  failureCode: PayoutFailureCode | null;
}

// Payouts: to the cardDeclined card refused, to the processingAuthorised card in transit then paid (webhook), to a bank
// account number ending 0000 invalid, above the amount limit refused; anything else paid at once.
export function payoutScenarioOf(destination: { cardNumber: string | null; accountNumber: string | null }, amountCents: number): PayoutScenario {
  if (amountCents > CHARGE_AMOUNT_LIMIT_CENTS) return { flow: 'immediate', failureCode: 'amount_limit_exceeded' };
  if (destination.cardNumber === ACME_TEST_CARDS.cardDeclined) return { flow: 'immediate', failureCode: 'recipient_refused' };
  if (destination.cardNumber === ACME_TEST_CARDS.processingAuthorised) return { flow: 'in_transit', failureCode: null };
  if (destination.cardNumber !== null && !passesLuhn(destination.cardNumber)) return { flow: 'immediate', failureCode: 'invalid_account' };
  if (destination.accountNumber?.endsWith('0000')) return { flow: 'immediate', failureCode: 'invalid_account' };
  return { flow: 'immediate', failureCode: null };
}

export function passesLuhn(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

// A card is valid through the last day of its expiry month (UTC).
function isExpired(expMonth: number, expYear: number, now: Date): boolean {
  const currentYear = now.getUTCFullYear();
  const currentMonth = now.getUTCMonth() + 1;
  return expYear < currentYear || (expYear === currentYear && expMonth < currentMonth);
}
