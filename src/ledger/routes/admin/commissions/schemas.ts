import Type from 'typebox';
import { COMMISSION_FIXED_MINOR_MAX } from '../../../domain/commission.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { Id } from '../../../../platform/lib/limits.ts';

// The error envelope every failure answers with (lib/errors.ts).
export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure: nothing was changed',
  codes: 'machine-readable: unauthorized, not_found, invalid_field, unknown_field, …',
  field: 'the offending field, dotted (pay.percent)',
});

export const MerchantNotFound = errorEnvelopeSchema({ meaning: 'no merchant has this id', codes: 'not_found' });
export const TermsRefused = errorEnvelopeSchema({
  meaning: 'the terms fail the schema or break the rules (a percent with more than two decimals, …): nothing was changed',
  codes: 'invalid_field, unknown_field',
  field: 'the offending field, dotted (pay.percent)',
});

export const MerchantCommissionParams = Type.Object({
  id: Id({ description: 'the merchant id' }),
});

const Terms = Type.Object(
  {
    percent: Type.Number({ minimum: 0, maximum: 100, description: 'the percentage part, 0 to 100, at most two decimals (2.5 = 2.5 %)' }),
    fixed: Type.Integer({
      minimum: 0,
      maximum: COMMISSION_FIXED_MINOR_MAX,
      description: "the fixed part, in minor units of the operation's currency (30 = 0.30 USD)",
    }),
  },
  { additionalProperties: false },
);

const TermsChange = (operation: string) =>
  Type.Optional(Type.Union([Terms, Type.Null()], { description: `new terms for ${operation}; null removes them (free); left out: unchanged` }));

export const SetCommissionsBody = Type.Object(
  { pay: TermsChange('payments'), payout: TermsChange('payouts'), refund: TermsChange('refunds') },
  { additionalProperties: false, examples: [{ pay: { percent: 2.5, fixed: 30 }, payout: { percent: 1, fixed: 0 }, refund: null }] },
);

const ShownTerms = (operation: string) => Type.Union([Terms, Type.Null()], { description: `the terms of ${operation}; null: none (no commission)` });

export const CommissionsEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    merchantId: Type.Integer(),
    commissions: Type.Object({ pay: ShownTerms('payments'), payout: ShownTerms('payouts'), refund: ShownTerms('refunds') }),
  },
  { examples: [{ success: true, merchantId: 7, commissions: { pay: { percent: 2.5, fixed: 30 }, payout: { percent: 1, fixed: 0 }, refund: null } }] },
);
