import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { Id, Page, PerPage } from '../../../../platform/lib/limits.ts';

export const ErrorEnvelope = errorEnvelopeSchema({ meaning: 'a failure: nothing was changed' });
export const ConflictNotFound = errorEnvelopeSchema({ meaning: 'no conflict has this id', codes: 'not_found' });
export const ConflictResolveRefused = errorEnvelopeSchema({
  meaning:
    'the conflict was already accepted or dismissed, or (accept) the payment has moved where the reported status cannot apply (refunded, or it has refunds): dismiss it',
  codes: 'invalid_state',
});
export const ConflictListRefused = errorEnvelopeSchema({
  meaning: 'a filter fails the schema',
  codes: 'invalid_field, unknown_field',
  field: 'state, page or perPage',
});

const CONFLICTS_PER_PAGE_MAX = 100;

export const ConflictListQuery = Type.Object(
  {
    state: Type.Union([Type.Literal('unresolved'), Type.Literal('all')], {
      default: 'unresolved',
      description: 'unresolved (default): not yet accepted or dismissed',
    }),
    page: Page(),
    perPage: PerPage(50, { maximum: CONFLICTS_PER_PAGE_MAX }),
  },
  { additionalProperties: false },
);

export const ConflictIdParams = Type.Object({ id: Id() });

export const ResolveConflictBody = Type.Object(
  {
    action: Type.Union([Type.Literal('accept'), Type.Literal('dismiss')], {
      description: 'accept: the reported status is applied through the state machine, with its ledger posting and notification; dismiss: the status stays',
    }),
    operator: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        pattern: '^[^\\u0000]*$',
        description: 'who decides, recorded as resolved_by (default: the admin key and the address)',
      }),
    ),
  },
  { additionalProperties: false, examples: [{ action: 'accept', operator: 'ops@acme' }, { action: 'dismiss' }] },
);

const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

const Conflict = Type.Object({
  id: Type.Integer(),
  payment_token: Type.String(),
  merchant_id: Type.Integer(),
  environment: Type.String(),
  source: Type.Union([Type.Literal('callback'), Type.Literal('status')], { description: 'a provider callback, or a /status answer' }),
  payment_status: Type.String({ description: 'the final status the payment had, and kept, when the report came' }),
  current_status: Type.String({ description: "the payment's status now" }),
  reported_status: Type.Union([Type.Literal('approved'), Type.Literal('declined')]),
  reported_amount: nullable(Type.Integer(), 'the amount the report named, in minor units'),
  reported_currency: nullable(Type.String(), 'the currency the report named'),
  raw_answer: Type.Unknown({ description: 'the callback claims or the /status answer, card data and secrets masked' }),
  created_at: Type.String({ format: 'date-time' }),
  resolution: Type.Union([Type.Literal('accepted'), Type.Literal('dismissed'), Type.Null()]),
  resolved_by: nullable(Type.String(), 'who accepted or dismissed it'),
  resolved_at: nullable(Type.String({ format: 'date-time' }), 'when'),
});

const CONFLICT_EXAMPLE = {
  id: 12,
  payment_token: '5f0c0e6c2b0b4a7c9d8e7f6a5b4c3d2e',
  merchant_id: 7,
  environment: 'production',
  source: 'callback',
  payment_status: 'declined',
  current_status: 'declined',
  reported_status: 'approved',
  reported_amount: 1999,
  reported_currency: 'EUR',
  raw_answer: { status: 'approved', amount: 1999, currency: 'EUR', gateway_token: 'gw-41' },
  created_at: '2026-11-27T05:00:00.000Z',
  resolution: null,
  resolved_by: null,
  resolved_at: null,
};

export const ConflictListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    unresolvedCount: Type.Integer({ description: 'conflicts no operator has accepted or dismissed, whatever the filter' }),
    totalCount: Type.Integer({ description: 'conflicts the filter matches' }),
    page: Type.Integer(),
    perPage: Type.Integer(),
    conflicts: Type.Array(Conflict, { description: 'newest first' }),
  },
  { examples: [{ success: true, unresolvedCount: 1, totalCount: 1, page: 1, perPage: 50, conflicts: [CONFLICT_EXAMPLE] }] },
);

export const ConflictEnvelope = Type.Object(
  { success: Type.Literal(true), conflict: Conflict },
  {
    examples: [{ success: true, conflict: { ...CONFLICT_EXAMPLE, resolution: 'accepted', resolved_by: 'ops@acme', resolved_at: '2026-11-27T06:00:00.000Z' } }],
  },
);
