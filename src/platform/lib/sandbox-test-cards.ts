// The sandbox's test card numbers, by the scenario each one triggers (spec 1). They live in the domain
// because production reads them too: a test card sent with a production key is declined before any
// gateway sees it, as the live modes of the big processors do.
export const SANDBOX_TEST_CARD_NUMBERS = Object.freeze({
  three_ds_approved: '4000 0000 0000 3220',
  three_ds_declined: '4000 0000 0000 3006',
  approved: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficient_funds: '4000 0000 0000 9995',
  callback_approved: '4000 0000 0000 1018',
  status_check_approved: '4000 0000 0000 1026',
  timeout_then_approved: '4000 0000 0000 1034',
  secure_code_approved: '4000 0000 0000 2008',
  next_step_approved: '4000 0000 0000 2016',
  payout_approved: '5555 5555 5555 4444',
  payout_declined: '5105 1051 0510 5100',
});

export const TEST_CARD_IN_PRODUCTION_REASON = 'test card used in production';

const TEST_CARD_DIGITS: ReadonlySet<string> = new Set(Object.values(SANDBOX_TEST_CARD_NUMBERS).map((display) => display.replaceAll(' ', '')));

export function isSandboxTestCardNumber(panDigits: string): boolean {
  return TEST_CARD_DIGITS.has(panDigits.replace(/\s+/g, ''));
}
