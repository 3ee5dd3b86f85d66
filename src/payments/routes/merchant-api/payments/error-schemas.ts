import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';

// The failures the payment routes declare beyond the common ones (openapi-common-errors.ts).
export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure; nothing was stored or changed',
  codes:
    'merchant_disabled (403); not_found (404); invalid_state, idempotency_key_in_use (409); invalid_field, mixed_spelling, page_too_deep (422); unauthorized (401), …',
});

export const CreateErrorEnvelope = errorEnvelopeSchema({
  meaning: 'the body breaks the rules of spec 2.1, or no gateway takes the payment: nothing was stored',
  codes:
    'invalid_field, unknown_field (one item per field, `field` names it); no_gateway (no enabled gateway of this merchant takes the currency and amount); recurring_gateway_unavailable; idempotency_key_reused (the same `Idempotency-Key` with another body)',
  field: 'the offending field, dotted: customer.email, card.pan',
});
