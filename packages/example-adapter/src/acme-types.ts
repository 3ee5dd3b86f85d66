import Type, { type Static } from 'typebox';
import { Compile } from 'typebox/compile';

// Acme Pay's API as this adapter reads it: only the fields it relies on, checked before use. A provider answer
// that does not match is "outcome unknown", never guessed at. Objects stay open: Acme may add fields.

const Metadata = Type.Record(Type.String(), Type.String());

const AcmeChargeSchema = Type.Object({
  id: Type.String({ pattern: '^ch_' }),
  object: Type.Literal('charge'),
  amount_cents: Type.Integer({ minimum: 0 }),
  currency_code: Type.String({ pattern: '^[a-z]{3}$' }),
  state: Type.String(), // authorised | refused | processing | challenge_required, and whatever Acme adds later
  refusal_code: Type.Union([Type.String(), Type.Null()]),
  refusal_message: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  reference: Type.String(),
  card: Type.Optional(Type.Object({ last4: Type.Optional(Type.String()), brand: Type.Optional(Type.String()) })),
  amount_refunded_cents: Type.Optional(Type.Integer({ minimum: 0 })),
  next_action: Type.Union([Type.Object({ type: Type.String(), redirect_url: Type.String() }), Type.Null()]),
  metadata: Type.Optional(Metadata),
});
export type AcmeCharge = Static<typeof AcmeChargeSchema>;

const AcmeRefundSchema = Type.Object({
  id: Type.String({ pattern: '^re_' }),
  object: Type.Literal('refund'),
  charge_id: Type.String(),
  amount_cents: Type.Integer({ minimum: 0 }),
  currency_code: Type.String({ pattern: '^[a-z]{3}$' }),
  state: Type.String(), // succeeded | failed
  failure_code: Type.Union([Type.String(), Type.Null()]),
});
export type AcmeRefund = Static<typeof AcmeRefundSchema>;

const AcmePayoutSchema = Type.Object({
  id: Type.String({ pattern: '^po_' }),
  object: Type.Literal('payout'),
  amount_cents: Type.Integer({ minimum: 0 }),
  currency_code: Type.String({ pattern: '^[a-z]{3}$' }),
  state: Type.String(), // paid | failed | in_transit
  failure_code: Type.Union([Type.String(), Type.Null()]),
  reference: Type.String(),
  metadata: Type.Optional(Metadata),
});
export type AcmePayout = Static<typeof AcmePayoutSchema>;

const AcmeErrorSchema = Type.Object({
  error: Type.Object({ type: Type.String(), code: Type.String(), message: Type.String(), param: Type.Optional(Type.Union([Type.String(), Type.Null()])) }),
});
export type AcmeError = Static<typeof AcmeErrorSchema>;

const AcmeChargeListSchema = Type.Object({ object: Type.Literal('list'), data: Type.Array(AcmeChargeSchema) });
const AcmePayoutListSchema = Type.Object({ object: Type.Literal('list'), data: Type.Array(AcmePayoutSchema) });

// A webhook event: `charge.updated` carries a charge, `payout.updated` a payout.
const AcmeEventSchema = Type.Object({
  id: Type.String(),
  type: Type.String(),
  created: Type.Integer(),
  data: Type.Object({ object: Type.Record(Type.String(), Type.Unknown()) }),
});
export type AcmeEvent = Static<typeof AcmeEventSchema>;

export const acmeChecks = {
  charge: Compile(AcmeChargeSchema),
  refund: Compile(AcmeRefundSchema),
  payout: Compile(AcmePayoutSchema),
  error: Compile(AcmeErrorSchema),
  chargeList: Compile(AcmeChargeListSchema),
  payoutList: Compile(AcmePayoutListSchema),
  event: Compile(AcmeEventSchema),
};
