import Type from 'typebox';
import { PayoutBodySchema } from '../../../contract/payout-body.ts';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { createdPayoutExample, createPayoutExample } from '../examples.ts';

// spec 2.4: the payout-create body (contract/payout-body.ts, which the validator compiles), with its documented example.
export const CreatePayoutBody = { ...PayoutBodySchema, examples: [createPayoutExample] };

const Status = Type.String({ description: 'init | pending | processing | approved | declined (spec 3, 4)' });

export const CreatePayoutResponse = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Integer({ description: '0' }),
    status: Type.Integer({ description: '200' }),
    errors: Type.Array(Type.Object({ code: Type.String(), message: Type.String() }), { maxItems: 0 }),
    token: Type.String({ description: "The payout's token: 32 lowercase hex characters" }),
    processingUrl: Type.Array(Type.Record(Type.String(), Type.String()), {
      description: 'single-key objects: the gateway alias → the URL showing the payout (GET, JSON)',
    }),
    selectorUrl: Type.String(),
    payment: Type.Object({
      amount: Type.Integer({ description: 'minor units' }),
      currency: Type.String(),
      gateway_amount: Type.Integer({ description: 'minor units' }),
      gateway_currency: Type.String(),
      status: Status,
      commission: Type.Integer({ description: 'the payout commission reserved with the amount, minor units' }),
    }),
    payout: Type.Object(
      { token: Type.String({ description: 'the same token' }), status: Status },
      { description: 'the payout itself, as integrations written for payouts read it' },
    ),
  },
  {
    description:
      'The payout as the adapter left it: approved, declined, pending (settled later), or processing (the request failed; settled by status checks). Amount plus commission is held from available until it is approved (sent) or declined (released).',
    examples: [createdPayoutExample],
  },
);

export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure: nothing was reserved or sent, unless the error says otherwise',
  codes: 'invalid_field, unknown_field, insufficient_balance, no_gateway, unauthorized, idempotency_key_reused, …',
  field: 'the offending field, dotted (bank_account.bank_name)',
});
