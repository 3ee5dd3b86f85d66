// What a customer is told about a decline (issue 11): one of a few classes, never the gateway's own words, which
// stay in the API (decline_reason). Gateways word their reasons freely, so the class is read from the text: the
// sandbox's reasons (sandbox-adapter/test-cards.ts), the usual acquirer phrases, and the ISO 8583 response codes
// a gateway may pass on as they are.

export const DECLINE_CLASSES = ['do_not_honor', 'insufficient_funds', 'expired_card', 'authentication_failed', 'other'] as const;
export type DeclineClass = (typeof DECLINE_CLASSES)[number];

const REASON_LENGTH_MAX = 1000; // longer texts are cut before matching, so the patterns' work stays bounded
// How a gateway's own reason is stored (domain/adapter-outcome.ts): the words after it are the gateway's.
const STORED_REASON_PREFIX = /^\s*gateway response error:\s*/i;

// The daily stats count declines by class inside PostgreSQL (a trigger): migration 0012 holds these rules as SQL in
// payment_decline_class, and test/payments/integration/daily-stats.test.ts holds the two to the same answers. A
// change here is a new migration replacing that function.
// First match wins: "Declined by issuer after 3-D Secure" is the issuer's refusal, not a failed authentication,
// so authentication is matched by its failure only.
const RULES: readonly (readonly [DeclineClass, RegExp])[] = [
  ['expired_card', /\bexpired[ _]card\b|\bcard\b[^.]{0,40}\bexpired\b|\bexpired\b[^.]{0,40}\bcard\b|^\s*54\b/i],
  ['insufficient_funds', /\binsufficient[ _]funds?\b|\bnot sufficient funds\b|\bnsf\b|^\s*51\b/i],
  [
    'authentication_failed',
    /\b(?:3-?d[ -]?secure|3ds|authenticat\w*|secure code|otp|challenge)\b[^.]{0,40}\bfail|\bauthentication_failed\b|\bfailed\b[^.]{0,40}\b(?:challenge|authentication)\b|\bwrong secure code\b/i,
  ],
  ['do_not_honor', /\bdo[ _]not[ _]hono(?:u)?r\b|\bcard[ _](?:was )?declined\b|\bdeclined by (?:the )?issuer\b|\bissuer declined\b|^\s*05\b/i],
];

export function declineClassOf(reason: string | null | undefined): DeclineClass {
  if (reason === null || reason === undefined) return 'other';
  const text = reason.slice(0, REASON_LENGTH_MAX).replace(STORED_REASON_PREFIX, '');
  for (const [declineClass, pattern] of RULES) if (pattern.test(text)) return declineClass;
  return 'other';
}
