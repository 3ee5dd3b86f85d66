import Type from 'typebox';
import { REFUND_COUNT_MAX } from '../../../domain/refund-amount.ts';
import { AmountMinor } from '../../../../platform/lib/limits.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { createdRefundExample, createRefundExample, refundDetailExample } from '../examples.ts';

const TOKEN_LENGTH_MAX = 64;
const RefundAmount = AmountMinor({ description: 'minor units (100 = 1.00 USD)' });
const Token32 = (description: string) => Type.String({ description: `${description}: 32 lowercase hex characters` });
const EmptyErrors = Type.Array(Type.Object({ code: Type.String(), message: Type.String() }), { maxItems: 0 });
const RefundStatus = Type.Union([Type.Literal('pending'), Type.Literal('approved'), Type.Literal('declined')], {
  description:
    'pending: sent, the gateway has not confirmed it yet (checked again until final); approved: sent to the customer; declined: nothing refunded, the hold released',
});

// spec 2.5: token (the original payment), amount optional. Unknown keys are refused: a misspelt amount must not
// refund the whole payment.
export const CreateRefundBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: TOKEN_LENGTH_MAX, description: 'the token of the approved payment to refund' }),
    amount: Type.Optional(
      AmountMinor({
        description: 'minor units, at most what is left to refund (captured − refunded or being refunded); absent: all of that',
      }),
    ),
  },
  { additionalProperties: false, examples: [createRefundExample] },
);

export const RefundTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: TOKEN_LENGTH_MAX, description: "the refund's token" }) });

const refundFields = {
  token: Token32("the refund's own token"),
  amount: RefundAmount,
  status: RefundStatus,
  currency: Type.String({ description: "the payment's currency" }),
  commission: Type.Integer({
    description: "the merchant's refund commission, minor units: taken from available with the amount, charged only when the refund is approved",
  }),
};

export const CreateRefundResponse = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Literal(0),
    status: Type.Literal(200),
    errors: EmptyErrors,
    token: Token32("the payment's token"),
    refund: Type.Object(refundFields),
  },
  {
    description: 'the refund as the gateway left it: approved, declined, or pending (settled later; the merchant is notified of the final status)',
    examples: [createdRefundExample],
  },
);

export const RefundEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Literal(0),
    status: Type.Literal(200),
    errors: EmptyErrors,
    token: Token32("the payment's token"),
    refund: Type.Object({
      ...refundFields,
      decline_reason: Type.Union([Type.String(), Type.Null()], { description: 'why a declined refund was declined; null otherwise' }),
      created_at: Type.String({ format: 'date-time' }),
      updated_at: Type.String({ format: 'date-time' }),
      finalized_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when it became approved or declined' }),
    }),
  },
  { examples: [refundDetailExample] },
);

export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure: nothing was reserved or refunded',
  codes: `not_found, invalid_state (the payment is not approved, or is a payout), refund_exceeds_captured, refund_count_exceeded (at most ${REFUND_COUNT_MAX} per payment), insufficient_balance, no_gateway, invalid_field, unknown_field, unauthorized, idempotency_key_reused, …`,
});
