// The sandbox test cards (spec 1) and what each one makes the emulated provider do.
// Served as-is by the main API at GET /api/v1/sandbox/test-cards.

import { SANDBOX_TEST_CARD_NUMBERS as NUMBERS } from '../platform/lib/sandbox-test-cards.ts';

export type SandboxOperation = 'pay' | 'payout';

export type SandboxScenario =
  | 'three_ds_approved'
  | 'three_ds_declined'
  | 'approved'
  | 'declined'
  | 'insufficient_funds'
  | 'callback_approved'
  | 'status_check_approved'
  | 'timeout_then_approved'
  | 'secure_code_approved'
  | 'next_step_approved'
  | 'payout_approved'
  | 'payout_declined';

export interface SandboxTestCard {
  pan: string;
  display: string;
  scenario: SandboxScenario;
  outcome: string;
  threeDSecure: boolean;
  operation: SandboxOperation;
}

// How the emulated provider behaves for a scenario:
// - firstAnswer: what /pay (or /payout) answers at once;
// - finalStatus / declineReason: where the transaction ends (after 3-D Secure success for 3-D Secure cards);
// - callback: whether a provider callback reports the final status, and when;
// - statusCheckReports: 'final' = /status reports the stored status, 'pending' = /status never resolves it.
export interface ScenarioBehaviour {
  firstAnswer: 'final' | 'pending' | 'three_d_secure' | 'timeout' | 'secure_code' | 'next_step'; // the last two: otp-flow.ts, next-step-flow.ts
  finalStatus: 'approved' | 'declined';
  declineReason: string | null;
  callback: 'none' | 'after_delay' | 'after_authentication';
  statusCheckReports: 'final' | 'pending';
}

export const SANDBOX_TEST_CARDS_URL_PATH = '/api/v1/sandbox/test-cards';

export const DECLINE_REASONS = {
  doNotHonor: 'Do not honor',
  insufficientFunds: 'Insufficient funds',
  expiredCard: 'Expired card', // any card, test card or not, whose expiry month is over
  declinedAfterThreeDSecure: 'Declined by issuer after 3-D Secure',
  threeDSecureFailed: '3-D Secure authentication failed',
  payoutDeclined: 'Payout declined by issuer',
  sandboxCardInProduction: 'sandbox card used in production',
  realCardInSandboxAdapter: 'the sandbox adapter cannot process real cards',
  cardDataMissing: 'sandbox needs card data: post the card through the hosted page or Host-to-Host',
} as const;

function card(display: string, scenario: SandboxScenario, operation: SandboxOperation, threeDSecure: boolean, outcome: string): SandboxTestCard {
  return Object.freeze({ pan: display.replaceAll(' ', ''), display, scenario, outcome, threeDSecure, operation });
}

export const SANDBOX_TEST_CARDS: readonly SandboxTestCard[] = Object.freeze([
  card(NUMBERS.three_ds_approved, 'three_ds_approved', 'pay', true, '3-D Secure, approved after successful authentication'),
  card(
    NUMBERS.three_ds_declined,
    'three_ds_declined',
    'pay',
    true,
    `3-D Secure, declined even after successful authentication ("${DECLINE_REASONS.declinedAfterThreeDSecure}")`,
  ),
  card(NUMBERS.approved, 'approved', 'pay', false, 'no 3-D Secure, approved at once'),
  card(NUMBERS.declined, 'declined', 'pay', false, `no 3-D Secure, declined at once ("${DECLINE_REASONS.doNotHonor}")`),
  card(NUMBERS.insufficient_funds, 'insufficient_funds', 'pay', false, `no 3-D Secure, declined at once ("${DECLINE_REASONS.insufficientFunds}")`),
  card(
    NUMBERS.callback_approved,
    'callback_approved',
    'pay',
    false,
    'pending; approved a few seconds later by provider callback only (/status keeps answering pending)',
  ),
  card(NUMBERS.status_check_approved, 'status_check_approved', 'pay', false, 'pending; no callback; approved by the status checker (/status answers approved)'),
  card(
    NUMBERS.timeout_then_approved,
    'timeout_then_approved',
    'pay',
    false,
    'the adapter answers only after response_timeout + 1 s (the caller times out); /status answers approved',
  ),
  card(
    NUMBERS.secure_code_approved,
    'secure_code_approved',
    'pay',
    false,
    'pending; asks for a 6-digit SMS code (secure_code_request): 123456 approves, 3 wrong codes decline; "send again" (resend_otp) works',
  ),
  card(
    NUMBERS.next_step_approved,
    'next_step_approved',
    'pay',
    false,
    'pending; asks for a phone number (next_step), then approves; a number ending in 0000 is declined',
  ),
  card(NUMBERS.payout_approved, 'payout_approved', 'payout', false, 'payout approved at once'),
  card(NUMBERS.payout_declined, 'payout_declined', 'payout', false, `payout declined at once ("${DECLINE_REASONS.payoutDeclined}")`),
]);

export const SCENARIO_BEHAVIOURS: Readonly<Record<SandboxScenario, ScenarioBehaviour>> = Object.freeze({
  three_ds_approved: {
    firstAnswer: 'three_d_secure',
    finalStatus: 'approved',
    declineReason: null,
    callback: 'after_authentication',
    statusCheckReports: 'final',
  },
  three_ds_declined: {
    firstAnswer: 'three_d_secure',
    finalStatus: 'declined',
    declineReason: DECLINE_REASONS.declinedAfterThreeDSecure,
    callback: 'after_authentication',
    statusCheckReports: 'final',
  },
  approved: { firstAnswer: 'final', finalStatus: 'approved', declineReason: null, callback: 'none', statusCheckReports: 'final' },
  declined: { firstAnswer: 'final', finalStatus: 'declined', declineReason: DECLINE_REASONS.doNotHonor, callback: 'none', statusCheckReports: 'final' },
  insufficient_funds: {
    firstAnswer: 'final',
    finalStatus: 'declined',
    declineReason: DECLINE_REASONS.insufficientFunds,
    callback: 'none',
    statusCheckReports: 'final',
  },
  callback_approved: { firstAnswer: 'pending', finalStatus: 'approved', declineReason: null, callback: 'after_delay', statusCheckReports: 'pending' },
  status_check_approved: { firstAnswer: 'pending', finalStatus: 'approved', declineReason: null, callback: 'none', statusCheckReports: 'final' },
  timeout_then_approved: { firstAnswer: 'timeout', finalStatus: 'approved', declineReason: null, callback: 'none', statusCheckReports: 'final' },
  // The step decides the final status (otp-flow.ts, next-step-flow.ts); the callback reports it once decided.
  secure_code_approved: {
    firstAnswer: 'secure_code',
    finalStatus: 'approved',
    declineReason: null,
    callback: 'after_authentication',
    statusCheckReports: 'final',
  },
  next_step_approved: { firstAnswer: 'next_step', finalStatus: 'approved', declineReason: null, callback: 'after_authentication', statusCheckReports: 'final' },
  payout_approved: { firstAnswer: 'final', finalStatus: 'approved', declineReason: null, callback: 'none', statusCheckReports: 'final' },
  payout_declined: {
    firstAnswer: 'final',
    finalStatus: 'declined',
    declineReason: DECLINE_REASONS.payoutDeclined,
    callback: 'none',
    statusCheckReports: 'final',
  },
});

const CARDS_BY_PAN: ReadonlyMap<string, SandboxTestCard> = new Map(SANDBOX_TEST_CARDS.map((testCard) => [testCard.pan, testCard]));

// Digits only; spaces between digits are accepted (spec 1: cards are typed as printed).
export function panDigitsOf(pan: string): string {
  return pan.replace(/\s+/g, '');
}

export function isSandboxTestCard(panDigits: string): boolean {
  return CARDS_BY_PAN.has(panDigitsOf(panDigits));
}

// The scenario of a test card for this operation, or null when it is not a test card of that operation.
export function sandboxScenarioOf(panDigits: string, operation: SandboxOperation): SandboxScenario | null {
  const testCard = CARDS_BY_PAN.get(panDigitsOf(panDigits));
  return testCard !== undefined && testCard.operation === operation ? testCard.scenario : null;
}

// The reason names no card number: stored and shown with the payment, every number in it is masked
// ("4000 00** **** 3220"), so a list of test cards there would list none. The route lists them.
export function unknownCardReason(operation: SandboxOperation): string {
  const noun = operation === 'pay' ? 'card' : 'payout card';
  return `not a sandbox test ${noun}; see GET ${SANDBOX_TEST_CARDS_URL_PATH}`;
}
