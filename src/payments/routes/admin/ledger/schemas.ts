import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';

// The error envelope every failure answers with (platform/lib/errors.ts).
export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure: nothing was changed',
  codes: 'machine-readable: unauthorized, not_found, invalid_field, unknown_field, …',
  field: 'the offending field, dotted (pay.percent)',
});

const Violation = Type.Object({
  rule: Type.Union(
    [
      Type.Literal('unbalanced_transaction'),
      Type.Literal('balance_mismatch'),
      Type.Literal('negative_balance'),
      Type.Literal('refunds_exceed_capture'),
      Type.Literal('postings_mismatch'),
      Type.Literal('unresolved_conflict'),
    ],
    {
      description:
        'unbalanced_transaction: entries do not sum to zero; balance_mismatch: a balance differs from the sum of its entries ' +
        "(or a profiles' clearing account does not sum to zero over all profiles); " +
        "negative_balance: a merchant's hold or fees, or a profile's wallet, below zero; refunds_exceed_capture: refunds above what the payment captured; " +
        'postings_mismatch: a payment, payout, refund, dispute or bank transfer lacks the postings its status implies, or a posting names the wrong one; ' +
        'unresolved_conflict: a late provider answer contradicted a final status more than 24 hours ago and no operator accepted or dismissed it (GET /api/admin/v1/conflicts)',
    },
  ),
  message: Type.String(),
  ref: Type.Record(Type.String(), Type.Union([Type.String(), Type.Integer()]), {
    description:
      'what the violation is about: transactionId, paymentId, refundId, disputeId, conflictId, transferId, chargeId, merchantId + environment + currency + account, ' +
      'or profileId + currency + account (a core banking wallet)',
  }),
});

const OverdrawnWallet = Type.Object({
  merchantId: Type.Integer(),
  environment: Type.String(),
  currency: Type.String(),
  available: Type.Integer({ description: 'below zero, in minor units' }),
});

export const LedgerCheckEnvelope = Type.Object(
  {
    success: Type.Boolean({ description: 'true when no invariant is violated' }),
    violations: Type.Array(Violation, { description: 'at most 100 per query' }),
    overdrawn: Type.Array(OverdrawnWallet, {
      description: 'wallets whose available balance is below zero (a provider took back an approved payment): not a violation, shown for follow-up',
    }),
  },
  {
    examples: [
      { success: true, violations: [], overdrawn: [] },
      {
        success: false,
        violations: [{ rule: 'unbalanced_transaction', message: 'ledger transaction 981 sums to 150', ref: { transactionId: 981 } }],
        overdrawn: [{ merchantId: 7, environment: 'production', currency: 'EUR', available: -2500 }],
      },
    ],
  },
);
